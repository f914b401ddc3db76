"""`flinkx lsp`: a language server over the same model as every other command."""
