// Placeholder until the account page build lands (issue: agent entry points and account page).
