/** Text made safe inside HTML, in elements and quoted attributes alike: the five characters HTML gives meaning to. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
