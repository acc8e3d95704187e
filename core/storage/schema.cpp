// SPDX-License-Identifier: Apache-2.0
#include "core/storage/schema.h"

#include <string>

#include "core/storage/database.h"
#include "core/storage/integrity.h"

namespace drasim::storage {

namespace {

// Each entry moves the schema from version i to i + 1. Never edit a shipped entry: append a new one.
const char* const kMigrations[] = {
    R"sql(
    CREATE TABLE scenarios (
        name TEXT PRIMARY KEY,
        content TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        scenario TEXT NOT NULL,
        seed INTEGER NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL,
        summary_json TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    );
    CREATE TABLE run_series (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        metric TEXT NOT NULL,
        time REAL NOT NULL,
        value REAL NOT NULL
    );
    CREATE INDEX run_series_by_metric ON run_series(run_id, metric, time);
    )sql",
    // 2: runs know which content of their scenario they ran (hash, and a revision per name).
    R"sql(
    ALTER TABLE runs ADD COLUMN scenario_hash TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN scenario_revision INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE scenario_revisions (
        scenario TEXT NOT NULL,
        revision INTEGER NOT NULL,
        hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (scenario, revision),
        UNIQUE (scenario, hash)
    );
    )sql",
    // 3: pod events, with the devices and placement of each binding, so a run can be replayed.
    R"sql(
    CREATE TABLE run_pod_events (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        time_ms INTEGER NOT NULL,
        type TEXT NOT NULL,
        pod TEXT NOT NULL,
        job TEXT NOT NULL,
        workload TEXT NOT NULL,
        node TEXT NOT NULL,
        message TEXT NOT NULL,
        placements TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    );
    CREATE INDEX run_pod_events_by_pod ON run_pod_events(run_id, pod, seq);
    CREATE TABLE run_pod_devices (
        run_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        claim TEXT NOT NULL,
        driver TEXT NOT NULL,
        pool TEXT NOT NULL,
        device TEXT NOT NULL,
        device_class TEXT NOT NULL,
        PRIMARY KEY (run_id, seq, idx),
        FOREIGN KEY (run_id, seq) REFERENCES run_pod_events(run_id, seq) ON DELETE CASCADE
    );
    )sql",
    // 4: scenarios keep the files of every saved revision; variants name their base and overrides;
    // the planner's tables join the one versioning (IF NOT EXISTS: shard files written before
    // this version already have them).
    R"sql(
    ALTER TABLE scenario_revisions ADD COLUMN main_file TEXT NOT NULL DEFAULT '';
    CREATE TABLE scenario_files (
        scenario TEXT NOT NULL,
        revision INTEGER NOT NULL,
        path TEXT NOT NULL,
        content BLOB NOT NULL,
        PRIMARY KEY (scenario, revision, path),
        FOREIGN KEY (scenario, revision) REFERENCES scenario_revisions(scenario, revision) ON DELETE CASCADE
    );
    CREATE TABLE scenario_variants (
        scenario TEXT NOT NULL,
        revision INTEGER NOT NULL,
        base TEXT NOT NULL,
        base_revision INTEGER NOT NULL,
        overrides TEXT NOT NULL,
        PRIMARY KEY (scenario, revision),
        FOREIGN KEY (scenario, revision) REFERENCES scenario_revisions(scenario, revision) ON DELETE CASCADE,
        FOREIGN KEY (base, base_revision) REFERENCES scenario_revisions(scenario, revision)
    );
    CREATE TABLE IF NOT EXISTS planner_studies (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        shard_index INTEGER NOT NULL,
        shard_count INTEGER NOT NULL,
        shapes INTEGER NOT NULL,
        levels INTEGER NOT NULL,
        status TEXT NOT NULL,
        report_json TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    CREATE TABLE IF NOT EXISTS planner_evaluations (
        study_id INTEGER NOT NULL REFERENCES planner_studies(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        mix TEXT NOT NULL,
        load TEXT NOT NULL,
        outcome TEXT NOT NULL,
        PRIMARY KEY (study_id, position)
    );
    )sql",
    // 5: each run names the process recording it (host:pid), so that opening the store marks
    // only runs whose writer is gone as interrupted, never one another process is still recording.
    R"sql(
    ALTER TABLE runs ADD COLUMN writer TEXT NOT NULL DEFAULT '';
    )sql",
    // 6: series points keep their recording order (sample by sample, in the engine's metric order)
    // so that a run exports the CSV `drasim simulate --series` wrote; rows stored before this
    // version were inserted in that order, which their rowid still tells.
    R"sql(
    ALTER TABLE run_series ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
    UPDATE run_series SET seq = rowid;
    CREATE INDEX run_series_by_seq ON run_series(run_id, seq);
    )sql",
    // 7: a planner study that compares scoring policies (spec.policies) keeps one row per policy
    // for each run or shard of it, naming the policy its evaluations were made under; '' for the
    // study of the scenario's own scoring, which every row stored before this version is.
    R"sql(
    ALTER TABLE planner_studies ADD COLUMN policy TEXT NOT NULL DEFAULT '';
    )sql",
};

static_assert(std::size(kMigrations) == kSchemaVersion, "one migration per schema version");

} // namespace

void openSchema(Database& db)
{
    refuseDamagedStore(db); // before the WAL switch below, which rewrites the header
    const int current = db.userVersion();
    if (current > kSchemaVersion)
        throw StorageError(db.path() + ": the store was written by a newer drasim (schema "
            + std::to_string(current) + ", this version knows " + std::to_string(kSchemaVersion)
            + "); it was left untouched");
    // WAL only now: switching the journal mode rewrites the file header, which a newer file keeps.
    db.exec("PRAGMA journal_mode=WAL");
    migrateSchema(db, kSchemaVersion);
}

void migrateSchema(Database& db, int version)
{
    for (int v = db.userVersion(); v < version && v < kSchemaVersion; ++v) {
        Transaction tx(db);
        db.exec(kMigrations[v]);
        db.setUserVersion(v + 1);
        tx.commit();
    }
}

} // namespace drasim::storage
