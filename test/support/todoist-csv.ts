/** A Todoist project export as Todoist writes it: a meta row, notes that span lines, blank rows, sections. */
export const TODOIST_CSV = [
  "TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE",
  "meta,view_style=list,,,,,,,,",
  "task,Plan the launch @work,The big one,1,1,Ann (1),,Dec 24,en,Europe/Berlin",
  'note,"Remember, the venue',
  'needs a deposit",,,,,,,,',
  "task,Book the venue @phone @work,,2,2,,,every monday,en,Europe/Berlin",
  "task,Pay deposit,,4,3,,,when pigs fly,en,Europe/Berlin",
  ",,,,,,,,,",
  "section,Later,,,,,,,,",
  "task,Write the recap,,,1,,,tomorrow 3pm,en,",
  "task,Send Notizen,,3,1,,,morgen,de,",
].join("\r\n");
