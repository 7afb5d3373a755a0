/**
 * Man pages (man(7) macros) generated from the commander tree: trackctl(1) and
 * one page per top-level command. Deterministic: the date is a fixed field
 * moved by hand at release time, never the time of generation.
 */
import type { Argument, Command, Option } from 'commander';
import { commandPath, examplesOf, helpTextOf, visibleCommands, visibleOptions, walkCommands } from '../../completion/tree.js';
import { bold, esc, finish, flag, heading, italic, literal, optionTag, paragraphs, subheading, tagged } from './roff.js';
import { ENVIRONMENT, EXIT_CODES, FILES, TOPICS } from './topics.js';

/** The date printed in every page's footer; change it when releasing. */
export const MAN_DATE = '2026-01-15';

export interface ManPage {
  file: string;
  text: string;
}

function pageName(cmd: Command): string {
  const path = commandPath(cmd);
  return path === '' ? 'trackctl' : `trackctl-${path.split(' ')[0]}`;
}

function header(name: string, version: string): string[] {
  return [`.TH ${flag(name.toUpperCase())} 1 ${MAN_DATE} "trackctl ${version}" "User Commands"`];
}

function nameLine(name: string, description: string): string[] {
  const d = description.replace(/\.$/, '');
  return [heading('name'), `${flag(name)} \\- ${esc(d.charAt(0).toLowerCase() + d.slice(1))}`];
}

/** The commands a page documents: the group itself when it runs something, then every descendant. */
function documented(top: Command): Command[] {
  return walkCommands(top).filter((c) => c === top ? visibleCommands(c).length === 0 || hasAction(c) : true).filter((c) => c.name() !== 'help' || c === top);
}

function hasAction(cmd: Command): boolean {
  return Boolean((cmd as unknown as { _actionHandler?: unknown })._actionHandler);
}

function argUsage(a: Argument): string {
  const n = `${a.name()}${a.variadic ? '...' : ''}`;
  return a.required ? `<${n}>` : `[${n}]`;
}

function synopsisLine(cmd: Command): string {
  const opts = visibleOptions(cmd).length > 0 ? ' [options]' : '';
  const args = cmd.registeredArguments.map(argUsage).join(' ');
  const subs = visibleCommands(cmd).length > 0 && !hasAction(cmd) ? ' <command>' : '';
  return `${bold(`trackctl ${commandPath(cmd)}`.trim())}${esc(opts)}${args ? ` ${optionTag(args)}` : ''}${esc(subs)}`;
}

function optionItems(options: readonly Option[]): string[] {
  const out: string[] = [];
  for (const o of options) {
    const extra: string[] = [];
    if (o.argChoices) extra.push(`one of: ${o.argChoices.join(', ')}`);
    if (o.defaultValue !== undefined && typeof o.defaultValue !== 'boolean') extra.push(`default: ${String(o.defaultValue)}`);
    out.push(...tagged(optionTag(o.flags), `${o.description}${extra.length ? ` (${extra.join('; ')})` : ''}`));
  }
  out.push(...tagged(optionTag('-h, --help'), 'show help for the command'));
  return out;
}

function argumentItems(cmd: Command): string[] {
  return cmd.registeredArguments.flatMap((a) =>
    tagged(italic(a.name()), `${a.description || a.name()}${a.argChoices ? ` (one of: ${a.argChoices.join(', ')})` : ''}`),
  );
}

/** The help text after a command's options, without its examples. */
function notes(cmd: Command): string[] {
  const text = helpTextOf(cmd, 'after')
    .split('\n')
    .filter((l) => !/^\s*\$ /.test(l) && !/^Examples:\s*$/.test(l))
    .join('\n');
  return paragraphs(text);
}

function examplesSection(examples: readonly string[]): string[] {
  return examples.length === 0 ? [] : [heading('examples'), ...literal(examples.map((e) => `$ ${e}`))];
}

function commonSections(root: Command, version: string, self: string): string[] {
  const env = ENVIRONMENT.flatMap((e) => tagged(bold(e.name), e.text));
  const files = FILES.flatMap((e) => tagged(italic(e.name), e.text));
  const codes = EXIT_CODES.flatMap((e) => tagged(bold(e.name), e.text));
  const pages = ['trackctl', ...visibleCommands(root).map((c) => `trackctl-${c.name()}`)].filter((p) => p !== self);
  return [
    heading('environment'),
    ...env,
    heading('files'),
    ...files,
    heading('exit status'),
    ...codes,
    heading('see also'),
    pages.map((p, i) => `${bold(p)}(1)${i < pages.length - 1 ? ',' : ''}`).join('\n'),
    '.PP',
    `${esc(`trackctl ${version}.`)} ${esc('Run')} ${bold('trackctl help')} ${italic('topic')} ${esc(`for: ${TOPICS.map((t) => t.name).join(', ')}.`)}`,
  ];
}

function rootPage(root: Command, version: string): ManPage {
  const lines = [
    ...header('trackctl', version),
    ...nameLine('trackctl', root.description()),
    heading('synopsis'),
    `${bold('trackctl')} [${italic('global options')}] ${italic('command')} [${italic('arguments')}]`,
    heading('description'),
    ...paragraphs(root.description()),
    '.PP',
    esc('Every command has --help with examples; each command group has its own manual page.'),
    heading('commands'),
    ...visibleCommands(root).flatMap((c) => tagged(`${bold(`trackctl ${c.name()}`)}${visibleCommands(c).length > 0 ? esc(` (${visibleCommands(c).filter((s) => s.name() !== 'help').map((s) => s.name()).join(', ')})`) : ''}`, `${c.description()}; see trackctl-${c.name()}(1).`)),
    heading('options'),
    esc('These global options apply to every command.'),
    ...optionItems(visibleOptions(root).concat()),
    ...examplesSection(examplesOf(root)),
    ...commonSections(root, version, 'trackctl'),
  ];
  return { file: 'trackctl.1', text: finish(lines) };
}

function groupPage(root: Command, top: Command, version: string): ManPage {
  const name = pageName(top);
  const cmds = documented(top);
  const single = cmds.length === 1 && cmds[0] === top;
  const describe = (c: Command): string[] => [
    ...paragraphs(c.description()),
    ...(c.registeredArguments.length > 0 ? ['.PP', esc('Arguments:'), ...argumentItems(c)] : []),
    ...notes(c),
  ];
  const lines = [
    ...header(name, version),
    ...nameLine(name, top.description()),
    heading('synopsis'),
    cmds.map(synopsisLine).join('\n.br\n'),
    heading('description'),
    ...(single
      ? describe(top)
      : [...(cmds[0] === top ? [] : paragraphs(top.description())), ...cmds.flatMap((c) => [subheading(`trackctl ${commandPath(c)}`), ...describe(c)])]),
    heading('options'),
    ...(single
      ? optionItems(visibleOptions(top))
      : cmds.flatMap((c) => [subheading(`trackctl ${commandPath(c)}`), ...optionItems(visibleOptions(c))])),
    subheading('Global options'),
    ...optionItems(visibleOptions(root).filter((o) => o.long !== '--version')).slice(0, -3),
    ...examplesSection(cmds.flatMap((c) => examplesOf(c))),
    ...commonSections(root, version, name),
  ];
  return { file: `${name}.1`, text: finish(lines) };
}

/** Every page, in a stable order: trackctl.1 first, then the top-level commands as registered. */
export function manPages(root: Command, version: string): ManPage[] {
  return [rootPage(root, version), ...visibleCommands(root).map((c) => groupPage(root, c, version))];
}
