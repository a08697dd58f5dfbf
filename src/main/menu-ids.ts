/** Ids of application-menu items that code outside the menu refers to (the packaged-app smoke test clicks File › Open…). */
export const MENU_OPEN_FILE = 'open-dna-file';
