// Types for drizzle-kit's generated migrations.js (durable-sqlite driver), as migrate() takes them.
declare const migrations: {
  journal: { entries: { idx: number; when: number; tag: string; breakpoints: boolean }[] };
  migrations: Record<string, string>;
};
export default migrations;
