// The application menu: File (Open File…, Add Folder…, Quit), Edit, View (developer items only in development), Help.
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openFile: () => void;
  addFolder: () => void;
  about: () => void;
  /** Reload and DevTools are for development; a packaged app has no use for them. */
  developerItems: boolean;
}

export function installMenu({ openFile, addFolder, about, developerItems }: MenuActions): void {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open File…', accelerator: 'CmdOrCtrl+Shift+O', click: () => openFile() },
        { label: 'Add Folder…', accelerator: 'CmdOrCtrl+O', click: () => addFolder() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...(developerItems
          ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] satisfies MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'About Session Vault', click: () => about() }],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
