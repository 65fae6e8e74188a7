// Placeholder until the API reference assets land (issue: agent entry points).
