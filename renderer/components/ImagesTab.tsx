// Every image of the open session as a grid (click one for full size), with the message it came from.
import type { OpenedSession } from '../../shared/api.ts';
import type { MessagePart } from '../../shared/session.ts';
import { useAppStore } from '../store/store-context.ts';
import { ImageView } from './transcript/MessageParts.tsx';

type ImagePart = Extract<MessagePart, { type: 'image' }>;

export interface SessionImage {
  part: ImagePart;
  /** 0-based index of its message in the session. */
  messageIndex: number;
  role: string;
}

/** The images of the messages loaded so far, in conversation order. */
export function sessionImages(session: Pick<OpenedSession, 'messages'>): SessionImage[] {
  return session.messages.flatMap((m, messageIndex) => m.parts.flatMap((part) => (part.type === 'image' ? [{ part, messageIndex, role: m.role }] : [])));
}

export function ImagesTab({ session }: { session: OpenedSession }) {
  const loadMore = useAppStore((s) => s.loadMoreMessages);
  const images = sessionImages(session);
  const unloaded = session.messagesTotal - session.messages.length;
  return (
    <div className="images-tab" data-testid="images-tab">
      <ul className="image-grid">
        {images.map((img, i) => (
          <li key={i} data-testid="image-cell">
            <ImageView part={img.part} caption={`Image ${i + 1} — message ${img.messageIndex + 1} (${img.role})`} />
            <span className="muted small">
              message {img.messageIndex + 1} · {img.role}
            </span>
          </li>
        ))}
      </ul>
      {unloaded > 0 && (
        <p className="muted">
          These are the images of the first {session.messages.length.toLocaleString()} messages.{' '}
          <button type="button" onClick={() => void loadMore(session.messagesTotal - 1)}>
            Load the other {unloaded.toLocaleString()} messages
          </button>
        </p>
      )}
    </div>
  );
}
