"""The project's external formats: records, the one-line position notation, their pydantic
models and JSON schema, loading of user input, and plain-text rendering."""
