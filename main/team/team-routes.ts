// Sends every call about a team session (`<machine>/<key>`) to the team store, and the rest to this machine's services: team sessions open, compare and export like local ones.
import type { MethodName, ServiceMethods } from '../../shared/api.ts';
import { compareSessions } from '../../shared/compare/compare.ts';
import { AppError } from '../../shared/result.ts';
import type { Session } from '../../shared/session.ts';
import { splitTeamKey } from '../../shared/team-keys.ts';

/** The team store's read methods (opened on first use). */
export type TeamMethodsSource = () => Promise<ServiceMethods>;

/** Methods whose input names one session by `key`: a team key goes to the team store (which refuses changes plainly). */
const BY_KEY = [
  'getSession',
  'getMessages',
  'getRawSource',
  'getRawRecord',
  'getVaultStatus',
  'keepSession',
  'setAnnotations',
  'forkSession',
  'getResumeInfo',
  'resumeInTerminal',
  'deleteSession',
  'getSummary',
  'setSummary',
] as const satisfies readonly MethodName[];

const isTeam = (key: string) => splitTeamKey(key) !== null;

/**
 * `local` with team keys routed to `team`. A comparison of a team session with a local one loads both (the local
 * one through `loadLocal`); an export or review scan takes team sessions or local ones, not both at once.
 */
export function withTeamSessions(local: ServiceMethods, team: TeamMethodsSource, loadLocal: (key: string) => Promise<Session>): ServiceMethods {
  const routed: Partial<Record<MethodName, (input: never) => Promise<unknown>>> = {};
  for (const name of BY_KEY) {
    const own = local[name] as (input: { key: string }) => Promise<unknown>;
    routed[name] = (async (input: { key: string }) =>
      isTeam(input.key) ? ((await team())[name] as (i: unknown) => Promise<unknown>)(input) : own(input)) as never;
  }
  const byKeys = <M extends 'scanBundle' | 'exportBundle'>(name: M) =>
    (async (input: { keys: string[] }) => {
      const teamKeys = input.keys.filter(isTeam);
      if (!teamKeys.length) return (local[name] as (i: unknown) => Promise<unknown>)(input);
      if (teamKeys.length !== input.keys.length)
        throw new AppError('INVALID_INPUT', "Share team sessions and this machine's sessions apart: choose sessions of one kind.", 'keys');
      return ((await team())[name] as (i: unknown) => Promise<unknown>)(input);
    }) as never;
  routed.scanBundle = byKeys('scanBundle');
  routed.exportBundle = byKeys('exportBundle');
  routed.summaryStates = (async (input: { keys: string[] }) => {
    const localKeys = input.keys.filter((k) => !isTeam(k));
    const states = localKeys.length ? (await local.summaryStates({ keys: localKeys })).states : [];
    const teamKeys = input.keys.filter(isTeam);
    // A store out of reach costs its sessions their marks, not this machine's sessions theirs.
    const unknown = () => teamKeys.map((key) => ({ key, source: null, author: null, updatedAt: null }));
    const teamStates = teamKeys.length
      ? await team()
          .then((m) => m.summaryStates({ keys: teamKeys }))
          .then((r) => r.states, unknown)
      : [];
    // In the order asked.
    const byKey = new Map([...states, ...teamStates].map((s) => [s.key, s]));
    return { states: input.keys.flatMap((key) => byKey.get(key) ?? []) };
  }) as never;
  routed.compareSessions = (async (input: { a: string; b: string }) => {
    if (!isTeam(input.a) && !isTeam(input.b)) return local.compareSessions(input);
    const load = async (key: string) => (isTeam(key) ? await (await team()).getSession({ key, messageLimit: 1_000_000 }) : loadLocal(key));
    const [a, b] = await Promise.all([load(input.a), load(input.b)]);
    return compareSessions(a as Session, b as Session);
  }) as never;
  return { ...local, ...(routed as Partial<ServiceMethods>) };
}
