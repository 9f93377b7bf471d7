"""Pictures of positions (SVG) and the self-contained HTML replay page."""
