"""Templates on the help centre's support tickets."""
