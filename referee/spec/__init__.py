"""The spec data: YAML read safely, overlays merged, schemas and cross-checks applied,
and the provenance of every uncertain value kept."""
