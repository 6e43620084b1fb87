"""Evidence for verdicts: certificates, explanations, cross-checks, counts."""
