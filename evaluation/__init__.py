"""Evaluation as a product feature: run a suite of dialogs, score it, write a report.

`evaluation.metrics` holds the pure metric code (rollouts and turn records in, figures out);
`evaluation.run` drives the real stack (embedded or over REST); `evaluation.report` writes
report.json, report.md and the charts; `evaluation.scenarios` generates diagnosis dialogs from the
fleet's fault schedule. `assetops eval` is the command.
"""
