// Which link targets shell.openExternal may be given: the rule the page's confirmation dialog also uses (shared/external-link.ts).
export { externalLinkTarget } from '../../shared/external-link.ts';
