"""Records a door publishes: match files, the score bulletin, rating charts."""
