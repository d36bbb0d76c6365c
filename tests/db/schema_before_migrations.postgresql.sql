-- The schema that SQLModel.metadata.create_all made before migrations (git f9b7f7e, postgresql),
-- captured with CreateTable/CreateIndex: what a database of that release holds.

CREATE TABLE loginthrottle (
	username_key VARCHAR(128) NOT NULL,
	failures INTEGER NOT NULL,
	last_failure_at TIMESTAMP WITH TIME ZONE NOT NULL,
	locked_until TIMESTAMP WITH TIME ZONE,
	PRIMARY KEY (username_key)
);

CREATE TABLE "user" (
	id SERIAL NOT NULL,
	username VARCHAR(20) NOT NULL,
	username_key VARCHAR(20) NOT NULL,
	display_name VARCHAR(40) NOT NULL,
	password_hash VARCHAR(255) NOT NULL,
	language VARCHAR(5),
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_user_username_key ON "user" (username_key);

CREATE TABLE playedgame (
	id SERIAL NOT NULL,
	user_id INTEGER NOT NULL,
	game_id VARCHAR(32) NOT NULL,
	options_json VARCHAR NOT NULL,
	started_at TIMESTAMP WITH TIME ZONE NOT NULL,
	ended_at TIMESTAMP WITH TIME ZONE NOT NULL,
	hands_played INTEGER NOT NULL,
	computer_level VARCHAR(32) NOT NULL,
	score INTEGER NOT NULL,
	placement INTEGER NOT NULL,
	won BOOLEAN NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(user_id) REFERENCES "user" (id) ON DELETE CASCADE
);

CREATE INDEX ix_playedgame_ended_at ON playedgame (ended_at);

CREATE INDEX ix_playedgame_game_id ON playedgame (game_id);

CREATE INDEX ix_playedgame_user_id ON playedgame (user_id);

CREATE TABLE gamedeal (
	id SERIAL NOT NULL,
	played_game_id INTEGER NOT NULL,
	hand INTEGER NOT NULL,
	commitment VARCHAR(128) NOT NULL,
	seed VARCHAR(128) NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(played_game_id) REFERENCES playedgame (id) ON DELETE CASCADE
);

CREATE INDEX ix_gamedeal_played_game_id ON gamedeal (played_game_id);

CREATE TABLE gameseat (
	id SERIAL NOT NULL,
	played_game_id INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	name_or_level VARCHAR(40) NOT NULL,
	is_human BOOLEAN NOT NULL,
	final_score INTEGER NOT NULL,
	placement INTEGER NOT NULL,
	is_winner BOOLEAN NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(played_game_id) REFERENCES playedgame (id) ON DELETE CASCADE
);

CREATE INDEX ix_gameseat_played_game_id ON gameseat (played_game_id);
