// An image shown at full size over the app (click an image to open it, Esc or the button to close), with what it belongs to.
import { ModalDialog } from '../ModalDialog.tsx';

export function ImageLightbox(props: { src: string; caption: string; onClose(): void }) {
  return (
    <ModalDialog labelledBy="image-lightbox-title" testId="image-lightbox" onEscape={props.onClose}>
      <div className="lightbox-head">
        <h2 id="image-lightbox-title">{props.caption}</h2>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <img className="lightbox-image" alt={props.caption} src={props.src} />
    </ModalDialog>
  );
}
