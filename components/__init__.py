"""Reactive NiceGUI components: cards, controls, the table shell and each game's board."""
