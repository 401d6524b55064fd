"""Database layer: declarative base, custom column types, engine/session factory and the tables."""
