"""The repair machinery behind ``inspector.repair``, one module per family of fixes.

- ``state.PlanState``: one transcript's repair in progress, set and typed in one place;
- ``plan.Plan``: runs the families in rules.md §4's order for one transcript;
- ``results``: one result per call, in its block (duplicates, moves, orphans, placeholders);
- ``messages``: edits inside messages (shapes, ids, result names, unknown roles);
- ``order``: the output list in one pass, and the target's role order (Mistral bridges);
- ``ids``: deterministic ids that fit a target; ``base``: the small shared types.

Every fix decides on the neutral view and edits raw items only through the dialect's editor
(``dialect.editor``, defined in the dialect's file); ``inspector.repairing`` runs the plan per transcript, writes the lists back
into the document and builds the report.
"""
