// SPDX-License-Identifier: Apache-2.0
#include "core/storage/run_store.h"

#include <ctime>

#include "core/storage/database.h"

namespace drasim::storage {

namespace {

std::string utcNow()
{
    std::time_t t = std::time(nullptr);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

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
};

constexpr const char* kRunColumns
    = "id, scenario, seed, label, status, summary_json, created_at, scenario_hash, scenario_revision";

RunInfo readRun(Statement& st)
{
    RunInfo r;
    r.id = st.columnInt(0);
    r.scenario = st.columnText(1);
    r.seed = uint64_t(st.columnInt(2));
    r.label = st.columnText(3);
    r.status = st.columnText(4);
    r.summaryJson = st.columnText(5);
    r.createdAt = st.columnText(6);
    r.scenarioHash = st.columnText(7);
    r.scenarioRevision = st.columnInt(8);
    return r;
}

} // namespace

RunStore::RunStore(const std::string& path) : m_db(std::make_unique<Database>(path)) { migrate(); }

RunStore::~RunStore() = default;

void RunStore::migrate()
{
    const int current = m_db->userVersion();
    if (current > kSchemaVersion)
        throw StorageError(m_db->path() + ": the store was written by a newer drasim (schema "
                           + std::to_string(current) + ", this version knows " + std::to_string(kSchemaVersion) + ")");
    for (int v = current; v < kSchemaVersion; ++v) {
        Transaction tx(*m_db);
        m_db->exec(kMigrations[v]);
        m_db->setUserVersion(v + 1);
        tx.commit();
    }
    // Runs left "running" by a process that died are not running any more.
    Transaction tx(*m_db);
    m_db->exec("UPDATE runs SET status = 'interrupted' WHERE status = 'running'");
    tx.commit();
}

void RunStore::saveScenario(const std::string& name, const std::string& content)
{
    Transaction tx(*m_db);
    m_db->prepare("INSERT INTO scenarios(name, content, updated_at) VALUES(?1, ?2, ?3) "
                  "ON CONFLICT(name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at")
        .bind(1, name)
        .bind(2, content)
        .bind(3, utcNow())
        .run();
    tx.commit();
}

std::optional<std::string> RunStore::scenario(const std::string& name)
{
    auto st = m_db->prepare("SELECT content FROM scenarios WHERE name = ?1");
    st.bind(1, name);
    if (!st.step())
        return std::nullopt;
    return st.columnText(0);
}

std::vector<std::string> RunStore::scenarioNames()
{
    std::vector<std::string> names;
    auto st = m_db->prepare("SELECT name FROM scenarios ORDER BY name");
    while (st.step())
        names.push_back(st.columnText(0));
    return names;
}

bool RunStore::deleteScenario(const std::string& name)
{
    Transaction tx(*m_db);
    m_db->prepare("DELETE FROM scenarios WHERE name = ?1").bind(1, name).run();
    bool deleted = m_db->changes() > 0;
    tx.commit();
    return deleted;
}

int64_t RunStore::revisionFor(const std::string& scenario, const std::string& hash)
{
    auto known = m_db->prepare("SELECT revision FROM scenario_revisions WHERE scenario = ?1 AND hash = ?2");
    known.bind(1, scenario).bind(2, hash);
    if (known.step())
        return known.columnInt(0);
    auto last = m_db->prepare("SELECT COALESCE(MAX(revision), 0) FROM scenario_revisions WHERE scenario = ?1");
    last.bind(1, scenario);
    int64_t revision = last.step() ? last.columnInt(0) + 1 : 1;
    m_db->prepare("INSERT INTO scenario_revisions(scenario, revision, hash, created_at) VALUES(?1, ?2, ?3, ?4)")
        .bind(1, scenario)
        .bind(2, revision)
        .bind(3, hash)
        .bind(4, utcNow())
        .run();
    return revision;
}

int64_t RunStore::beginRun(
    const std::string& scenario, uint64_t seed, const std::string& label, const std::string& scenarioHash)
{
    Transaction tx(*m_db);
    int64_t revision = scenarioHash.empty() ? 0 : revisionFor(scenario, scenarioHash);
    m_db->prepare("INSERT INTO runs(scenario, seed, label, status, created_at, scenario_hash, scenario_revision) "
                  "VALUES(?1, ?2, ?3, 'running', ?4, ?5, ?6)")
        .bind(1, scenario)
        .bind(2, int64_t(seed))
        .bind(3, label)
        .bind(4, utcNow())
        .bind(5, scenarioHash)
        .bind(6, revision)
        .run();
    int64_t id = m_db->lastInsertId();
    tx.commit();
    return id;
}

void RunStore::appendSamples(int64_t runId, const std::vector<SeriesPoint>& points)
{
    Transaction tx(*m_db);
    auto st = m_db->prepare("INSERT INTO run_series(run_id, metric, time, value) VALUES(?1, ?2, ?3, ?4)");
    for (const auto& p : points) {
        st.bind(1, runId).bind(2, p.metric).bind(3, p.time).bind(4, p.value);
        st.run();
    }
    tx.commit();
}

std::vector<std::string> RunStore::scenarioRevisions(const std::string& scenario)
{
    std::vector<std::string> out;
    auto st = m_db->prepare("SELECT hash FROM scenario_revisions WHERE scenario = ?1 ORDER BY revision");
    st.bind(1, scenario);
    while (st.step())
        out.push_back(st.columnText(0));
    return out;
}

void RunStore::finishRun(int64_t runId, const std::string& status, const std::string& summaryJson)
{
    Transaction tx(*m_db);
    m_db->prepare("UPDATE runs SET status = ?2, summary_json = ?3 WHERE id = ?1")
        .bind(1, runId)
        .bind(2, status)
        .bind(3, summaryJson)
        .run();
    tx.commit();
}

bool RunStore::deleteRun(int64_t runId)
{
    Transaction tx(*m_db);
    m_db->prepare("DELETE FROM runs WHERE id = ?1").bind(1, runId).run();
    bool deleted = m_db->changes() > 0;
    tx.commit();
    return deleted;
}

std::vector<RunInfo> RunStore::runs()
{
    std::vector<RunInfo> out;
    auto st = m_db->prepare(std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY id DESC");
    while (st.step())
        out.push_back(readRun(st));
    return out;
}

std::optional<RunInfo> RunStore::run(int64_t runId)
{
    auto st = m_db->prepare(std::string("SELECT ") + kRunColumns + " FROM runs WHERE id = ?1");
    st.bind(1, runId);
    if (!st.step())
        return std::nullopt;
    return readRun(st);
}

std::vector<SeriesPoint> RunStore::series(int64_t runId, const std::string& metric)
{
    std::vector<SeriesPoint> out;
    auto st = metric.empty()
        ? m_db->prepare("SELECT time, metric, value FROM run_series WHERE run_id = ?1 ORDER BY metric, time")
        : m_db->prepare("SELECT time, metric, value FROM run_series WHERE run_id = ?1 AND metric = ?2 ORDER BY time");
    st.bind(1, runId);
    if (!metric.empty())
        st.bind(2, metric);
    while (st.step())
        out.push_back({ st.columnDouble(0), st.columnText(1), st.columnDouble(2) });
    return out;
}

std::vector<std::string> RunStore::metrics(int64_t runId)
{
    std::vector<std::string> out;
    auto st = m_db->prepare("SELECT DISTINCT metric FROM run_series WHERE run_id = ?1 ORDER BY metric");
    st.bind(1, runId);
    while (st.step())
        out.push_back(st.columnText(0));
    return out;
}

} // namespace drasim::storage
