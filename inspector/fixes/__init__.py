"""The repair machinery behind ``inspector.repair``: the plan (``plan.py``) and new ids (``ids.py``).

``plan.Plan`` decides every fix on the neutral view of one transcript and edits raw items only
through the dialect's editor (``inspector.editors``); ``inspector.repair`` runs it per
transcript, writes the lists back into the document and builds the report.
"""
