"""Every SQLModel table of the site lives in this one module (see STYLE.md).

Tables are added here by the features that need them; `models.db.init_db` imports this module so
that `SQLModel.metadata` knows them all before `create_all`.
"""
