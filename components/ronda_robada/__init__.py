"""The Ronda Robada table: its board with the run builder, its log and its count."""
