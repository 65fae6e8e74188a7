/**
 * A time zone as both pages write it for people: the IANA id with spaces for underscores
 * ("America/New York"). Forms still send the id itself ("America/New_York"), as the API takes it.
 */
export const zoneName = (zone: string) => zone.replaceAll("_", " ");
