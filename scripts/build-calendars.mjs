// Placeholder until the calendar-pack generator lands (issue: public calendar packs).
