-- The schema of an arena database after migrations m001..m011 (m006 is another branch's),
-- dumped from sqlite_master of a new database: what every database is brought to.
CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        digest TEXT NOT NULL,              -- hash of the bot's directory (hex)
        path TEXT NOT NULL,                -- where it was first seen (informative)
        first_seen TEXT NOT NULL,          -- ISO 8601 UTC
        UNIQUE (name, version, digest)
    ) STRICT
    ;
CREATE TABLE games (
        id TEXT PRIMARY KEY,               -- GameRecord.game_id
        seq INTEGER NOT NULL UNIQUE,       -- save order (stable, unlike a rowid)
        title TEXT NOT NULL,
        options TEXT NOT NULL,             -- JSON object
        seed INTEGER NOT NULL,
        players INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('complete', 'aborted')),
        termination TEXT NOT NULL,
        started_at TEXT NOT NULL,          -- ISO 8601 UTC
        finished_at TEXT NOT NULL,
        decisions INTEGER NOT NULL,        -- how many
        detail TEXT NOT NULL               -- JSON object (Outcome.detail)
    , sandboxed INTEGER, time_control TEXT, fault_policy TEXT) STRICT
    ;
CREATE INDEX games_by_title ON games (title, finished_at, seq);
CREATE INDEX games_by_time ON games (finished_at, seq);
CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        score REAL NOT NULL,
        rank INTEGER NOT NULL,             -- 1 = best; ties share a rank
        fault TEXT NOT NULL,               -- arena.faults.Fault value
        fault_reason TEXT,
        time_ms REAL NOT NULL,
        decisions INTEGER NOT NULL,
        bot_seed INTEGER NOT NULL, cpu_ms REAL,         -- the seed this seat's bot was sent (not the deal's)
        PRIMARY KEY (game_id, seat)
    ) STRICT
    ;
CREATE INDEX seats_by_bot ON seats (bot_id, game_id);
CREATE TABLE ratings (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,            -- rating updates so far
        updated_at TEXT NOT NULL,          -- finished_at of the last game that rated it
        PRIMARY KEY (title, bot_id)
    ) STRICT
    ;
CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) STRICT
    ;
CREATE TABLE "game_decisions" (
            game_id TEXT PRIMARY KEY REFERENCES games (id),
            decisions BLOB NOT NULL            -- arena.store.decisions.pack
        ) STRICT
        ;
CREATE TABLE "rating_history" (
            game_id TEXT NOT NULL REFERENCES games (id),
            title TEXT NOT NULL,
            bot_id INTEGER NOT NULL REFERENCES bots (id),
            mu_before REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL,
            PRIMARY KEY (game_id, bot_id)
        ) STRICT, WITHOUT ROWID
        ;
CREATE TABLE title_bot_totals (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        games INTEGER NOT NULL,            -- complete games it sat in (once, whatever its seats)
        seats INTEGER NOT NULL,            -- seats it played in complete games
        wins INTEGER NOT NULL,             -- of those, seats ranked 1 (shared firsts count)
        score_sum REAL NOT NULL,           -- over those seats
        faults INTEGER NOT NULL,           -- complete games where one of its seats faulted
        aborted INTEGER NOT NULL,          -- aborted games it sat in
        PRIMARY KEY (title, bot_id)
    ) STRICT
;
CREATE TABLE leagues (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        fingerprint TEXT NOT NULL,         -- leagues.schedule.schedule_fingerprint
        games INTEGER NOT NULL,            -- games scheduled
        path TEXT NOT NULL,                -- the league file it was first run from
        created_at TEXT NOT NULL
    ) STRICT
    ;
CREATE TABLE league_games (
        league_id INTEGER NOT NULL REFERENCES leagues (id),
        task INTEGER NOT NULL,             -- GameTask.index
        game_id TEXT NOT NULL UNIQUE REFERENCES games (id),
        PRIMARY KEY (league_id, task)
    ) STRICT
    ;
CREATE TABLE league_disqualified (
            league_id INTEGER NOT NULL REFERENCES leagues (id),
            entrant INTEGER NOT NULL,          -- index into the league's entrants
            label TEXT NOT NULL,
            games INTEGER NOT NULL,            -- league games it had played
            faults INTEGER NOT NULL,           -- of which it faulted in
            at TEXT NOT NULL,
            PRIMARY KEY (league_id, entrant)
        ) STRICT
        ;
CREATE TABLE league_bot_tally (
        league_id INTEGER NOT NULL REFERENCES leagues (id),
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        games INTEGER NOT NULL,            -- complete league games it sat in
        seats INTEGER NOT NULL,            -- seats it played in them
        mu REAL NOT NULL,                  -- TrueSkill over the league's games only
        sigma REAL NOT NULL,
        wins INTEGER NOT NULL,             -- seats ranked 1
        rank_sum INTEGER NOT NULL,
        rank_squares INTEGER NOT NULL,
        score_sum REAL NOT NULL,
        score_squares REAL NOT NULL,
        faults INTEGER NOT NULL,           -- seats that faulted
        PRIMARY KEY (league_id, bot_id)
    ) STRICT
    ;
CREATE TABLE league_head_to_head (
        league_id INTEGER NOT NULL REFERENCES leagues (id),
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        opponent_id INTEGER NOT NULL REFERENCES bots (id),
        meetings INTEGER NOT NULL,         -- seat against seat
        ahead INTEGER NOT NULL,            -- bot ranked better than opponent
        ties INTEGER NOT NULL,
        PRIMARY KEY (league_id, bot_id, opponent_id)
    ) STRICT
    ;
CREATE VIEW leaderboard AS            -- what `arena ratings --json` prints, per title
    SELECT r.title, b.name || '@' || b.version AS bot, r.mu - 3 * r.sigma AS mu_minus_3sigma,
           r.mu, r.sigma, coalesce(t.games, 0) AS games, coalesce(t.seats, 0) AS seats,
           coalesce(t.wins, 0) AS wins, t.score_sum / nullif(t.seats, 0) AS mean_score,
           coalesce(t.faults, 0) AS faults, coalesce(t.aborted, 0) AS aborted,
           b.name, b.version, b.digest, b.id AS bot_id
    FROM ratings r
    JOIN bots b ON b.id = r.bot_id
    LEFT JOIN title_bot_totals t ON t.title = r.title AND t.bot_id = r.bot_id
    ORDER BY r.title, r.mu - 3 * r.sigma DESC, r.mu DESC, b.name, b.version, b.id;
CREATE VIEW bot_games AS              -- one row per seat: a bot's games and how it fared
    SELECT b.name || '@' || b.version AS bot, g.id AS game_id, g.title, g.finished_at,
           g.status, g.players, s.seat, s.rank, s.score, s.fault, s.fault_reason,
           s.decisions, s.time_ms, s.cpu_ms, b.name, b.version, b.digest, b.id AS bot_id, g.seq
    FROM seats s
    JOIN games g ON g.id = s.game_id
    JOIN bots b ON b.id = s.bot_id;
CREATE TABLE title_bot_seat_sums (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        seat INTEGER NOT NULL,
        seats INTEGER NOT NULL,            -- seats it played in complete games
        wins INTEGER NOT NULL,             -- of those, ranked 1
        rank_sum INTEGER NOT NULL,
        score_sum REAL NOT NULL,
        faults INTEGER NOT NULL,           -- seats with a fault other than ok
        decisions INTEGER NOT NULL,
        time_ms REAL NOT NULL,             -- wall clock over those decisions
        cpu_decisions INTEGER NOT NULL,    -- decisions of the seats whose CPU was measured
        cpu_ms REAL NOT NULL,
        PRIMARY KEY (title, bot_id, seat)
    ) STRICT
    ;
CREATE TABLE title_bot_opponents (
        title TEXT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots (id),
        opponent_id INTEGER NOT NULL REFERENCES bots (id),
        meetings INTEGER NOT NULL,         -- seat against seat, in complete games
        ahead INTEGER NOT NULL,            -- bot ranked better than opponent
        ties INTEGER NOT NULL,
        PRIMARY KEY (title, bot_id, opponent_id)
    ) STRICT, WITHOUT ROWID
    ;
CREATE TRIGGER seat_sums_after_insert AFTER INSERT ON seats
    BEGIN
        INSERT INTO title_bot_seat_sums
            (title, bot_id, seat, seats, wins, rank_sum, score_sum, faults, decisions,
             time_ms, cpu_decisions, cpu_ms)
        SELECT g.title, NEW.bot_id, NEW.seat, 1, NEW.rank = 1, NEW.rank, NEW.score,
               NEW.fault <> 'ok', NEW.decisions, NEW.time_ms,
               CASE WHEN NEW.cpu_ms IS NULL THEN 0 ELSE NEW.decisions END,
               coalesce(NEW.cpu_ms, 0.0)
        FROM games g WHERE g.id = NEW.game_id AND g.status = 'complete'
        ON CONFLICT (title, bot_id, seat) DO UPDATE SET
            seats = seats + 1, wins = wins + excluded.wins,
            rank_sum = rank_sum + excluded.rank_sum, score_sum = score_sum + excluded.score_sum,
            faults = faults + excluded.faults, decisions = decisions + excluded.decisions,
            time_ms = time_ms + excluded.time_ms,
            cpu_decisions = cpu_decisions + excluded.cpu_decisions,
            cpu_ms = cpu_ms + excluded.cpu_ms;
        -- each pair once, when its second seat arrives, in both directions
        INSERT INTO title_bot_opponents (title, bot_id, opponent_id, meetings, ahead, ties)
        SELECT g.title, pair.a, pair.b, 1, pair.a_rank < pair.b_rank, pair.a_rank = pair.b_rank
        FROM games g JOIN (
            SELECT NEW.bot_id AS a, NEW.rank AS a_rank, o.bot_id AS b, o.rank AS b_rank
            FROM seats o WHERE o.game_id = NEW.game_id AND o.seat <> NEW.seat
                AND o.bot_id <> NEW.bot_id
            UNION ALL
            SELECT o.bot_id, o.rank, NEW.bot_id, NEW.rank
            FROM seats o WHERE o.game_id = NEW.game_id AND o.seat <> NEW.seat
                AND o.bot_id <> NEW.bot_id
        ) AS pair
        WHERE g.id = NEW.game_id AND g.status = 'complete'
        ON CONFLICT (title, bot_id, opponent_id) DO UPDATE SET
            meetings = meetings + 1, ahead = ahead + excluded.ahead, ties = ties + excluded.ties;
    END;
CREATE INDEX seats_faulted ON seats (bot_id, game_id) WHERE fault <> 'ok';
