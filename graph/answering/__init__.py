"""Answer composition: the offline answer of a turn, shaped by the question it answers."""
