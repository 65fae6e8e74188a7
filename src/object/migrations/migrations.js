import journal from "./meta/_journal.json";
import m0000 from "./0000_tables.sql";
import m0001 from "./0001_lists_and_search.sql";
import m0002 from "./0002_events.sql";
import m0003 from "./0003_connection_generation.sql";
import m0004 from "./0004_webhook_secret_rotation.sql";
import m0005 from "./0005_labels.sql";
import m0006 from "./0006_subtasks_priority_position.sql";
import m0007 from "./0007_email_reminders.sql";
import m0008 from "./0008_web_push.sql";

export default {
  journal,
  migrations: {
    m0000,
    m0001,
    m0002,
    m0003,
    m0004,
    m0005,
    m0006,
    m0007,
    m0008,
  },
};
