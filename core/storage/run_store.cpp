// SPDX-License-Identifier: Apache-2.0
#include "core/storage/run_store.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

#include "core/storage/database.h"
#include "core/storage/schema.h"

namespace drasim::storage {

namespace {

/// "host:pid" of this process: who is recording a run.
std::string writerId()
{
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return std::string(host) + ":" + std::to_string(getpid());
}

/// Whether the process that began a run may still be recording it: a writer on this host whose
/// pid no longer exists is gone; one on another host cannot be checked and counts as alive.
bool writerMayLive(const std::string& writer)
{
    const size_t colon = writer.rfind(':');
    if (writer.empty() || colon == std::string::npos)
        return false; // runs from before schema 5 name no writer
    const std::string self = writerId();
    if (writer.substr(0, colon) != self.substr(0, self.rfind(':')))
        return true;
    const long pid = std::strtol(writer.c_str() + colon + 1, nullptr, 10);
    return pid > 0 && (kill(pid_t(pid), 0) == 0 || errno == EPERM);
}

std::string utcNow()
{
    std::time_t t = std::time(nullptr);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

constexpr const char* kRunColumns
    = "id, scenario, seed, label, status, summary_json, created_at, scenario_hash, scenario_revision";

/// Placement classes ("NV", "PIX", ...) joined by commas: they never contain one.
std::string joinPlacements(const std::vector<std::string>& placements)
{
    std::string out;
    for (const auto& p : placements)
        out += (out.empty() ? "" : ",") + p;
    return out;
}

std::vector<std::string> splitPlacements(const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos)
            end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

sim::PodEventType podEventType(const std::string& name)
{
    for (auto t : { sim::PodEventType::Created, sim::PodEventType::Scheduled,
             sim::PodEventType::Unschedulable, sim::PodEventType::Succeeded, sim::PodEventType::Failed,
             sim::PodEventType::Evicted, sim::PodEventType::Preempted })
        if (name == sim::podEventTypeName(t))
            return t;
    throw StorageError("unknown pod event type in the store: \"" + name + "\"");
}

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

RunStore::RunStore(const std::string& path)
    : m_db(std::make_unique<Database>(path))
{
    migrate();
}

RunStore::~RunStore()
{
    // Runs this store began and never finished were abandoned by their caller.
    try {
        for (int64_t id : std::set<int64_t>(m_unfinished))
            finishRun(id, "interrupted", "");
    } catch (...) {
        // A destructor cannot report; the next open marks them once this process is gone.
    }
}

const std::string& RunStore::path() const
{
    return m_db->path();
}

void RunStore::migrate()
{
    openSchema(*m_db);
    markAbandonedRuns();
}

void RunStore::markAbandonedRuns()
{
    Transaction tx(*m_db);
    std::vector<int64_t> gone;
    auto running = m_db->prepare("SELECT id, writer FROM runs WHERE status = 'running'");
    while (running.step())
        if (!writerMayLive(running.columnText(1)))
            gone.push_back(running.columnInt(0));
    auto mark = m_db->prepare("UPDATE runs SET status = 'interrupted' WHERE id = ?1");
    for (int64_t id : gone) {
        mark.bind(1, id);
        mark.run();
    }
    tx.commit();
}

void RunStore::saveScenario(const std::string& name, const std::string& content)
{
    Transaction tx(*m_db);
    m_db->prepare(
            "INSERT INTO scenarios(name, content, updated_at) VALUES(?1, ?2, ?3) "
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
    auto last
        = m_db->prepare("SELECT COALESCE(MAX(revision), 0) FROM scenario_revisions WHERE scenario = ?1");
    last.bind(1, scenario);
    int64_t revision = last.step() ? last.columnInt(0) + 1 : 1;
    m_db->prepare(
            "INSERT INTO scenario_revisions(scenario, revision, hash, created_at) VALUES(?1, ?2, ?3, ?4)")
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
    m_db->prepare(
            "INSERT INTO runs(scenario, seed, label, status, created_at, scenario_hash, scenario_revision, "
            "writer) VALUES(?1, ?2, ?3, 'running', ?4, ?5, ?6, ?7)")
        .bind(1, scenario)
        .bind(2, int64_t(seed))
        .bind(3, label)
        .bind(4, utcNow())
        .bind(5, scenarioHash)
        .bind(6, revision)
        .bind(7, writerId())
        .run();
    int64_t id = m_db->lastInsertId();
    tx.commit();
    m_unfinished.insert(id);
    return id;
}

void RunStore::appendSamples(int64_t runId, const std::vector<SeriesPoint>& points)
{
    Transaction tx(*m_db);
    auto last = m_db->prepare("SELECT COALESCE(MAX(seq), 0) FROM run_series WHERE run_id = ?1");
    last.bind(1, runId);
    int64_t seq = last.step() ? last.columnInt(0) : 0;
    auto st = m_db->prepare(
        "INSERT INTO run_series(run_id, metric, time, value, seq) VALUES(?1, ?2, ?3, ?4, ?5)");
    for (const auto& p : points) {
        st.bind(1, runId).bind(2, p.metric).bind(3, p.time).bind(4, p.value).bind(5, ++seq);
        st.run();
    }
    tx.commit();
}

void RunStore::appendPodEvents(int64_t runId, const std::vector<sim::PodEvent>& events)
{
    Transaction tx(*m_db);
    auto next = m_db->prepare("SELECT COALESCE(MAX(seq), -1) + 1 FROM run_pod_events WHERE run_id = ?1");
    next.bind(1, runId);
    int64_t seq = next.step() ? next.columnInt(0) : 0;
    auto ev
        = m_db->prepare("INSERT INTO run_pod_events(run_id, seq, time_ms, type, pod, job, workload, node, "
                        "message, placements) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    auto dev = m_db->prepare("INSERT INTO run_pod_devices(run_id, seq, idx, claim, driver, pool, device, "
                             "device_class) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    for (const auto& e : events) {
        ev.bind(1, runId)
            .bind(2, seq)
            .bind(3, int64_t(e.time))
            .bind(4, std::string_view(sim::podEventTypeName(e.type)))
            .bind(5, e.pod)
            .bind(6, e.job)
            .bind(7, e.workload)
            .bind(8, e.node)
            .bind(9, e.message)
            .bind(10, joinPlacements(e.placements));
        ev.run();
        for (size_t i = 0; i < e.devices.size(); ++i) {
            const auto& d = e.devices[i];
            dev.bind(1, runId)
                .bind(2, seq)
                .bind(3, int64_t(i))
                .bind(4, d.claim)
                .bind(5, d.driver)
                .bind(6, d.pool)
                .bind(7, d.device)
                .bind(8, d.deviceClass);
            dev.run();
        }
        ++seq;
    }
    tx.commit();
}

std::vector<sim::PodEvent> RunStore::podEvents(int64_t runId, const std::string& pod)
{
    std::vector<sim::PodEvent> out;
    std::vector<int64_t> seqs;
    auto st = m_db->prepare("SELECT seq, time_ms, type, pod, job, workload, node, message, placements "
                            "FROM run_pod_events WHERE run_id = ?1 AND (?2 = '' OR pod = ?2) ORDER BY seq");
    st.bind(1, runId).bind(2, pod);
    while (st.step()) {
        sim::PodEvent e;
        seqs.push_back(st.columnInt(0));
        e.time = st.columnInt(1);
        e.type = podEventType(st.columnText(2));
        e.pod = st.columnText(3);
        e.job = st.columnText(4);
        e.workload = st.columnText(5);
        e.node = st.columnText(6);
        e.message = st.columnText(7);
        e.placements = splitPlacements(st.columnText(8));
        out.push_back(std::move(e));
    }
    auto dev = m_db->prepare("SELECT claim, driver, pool, device, device_class FROM run_pod_devices "
                             "WHERE run_id = ?1 AND seq = ?2 ORDER BY idx");
    for (size_t i = 0; i < out.size(); ++i) {
        dev.bind(1, runId).bind(2, seqs[i]);
        while (dev.step())
            out[i].devices.push_back({ dev.columnText(0), dev.columnText(1), dev.columnText(2),
                dev.columnText(3), dev.columnText(4) });
        dev.reset();
    }
    return out;
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
    m_unfinished.erase(runId);
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
        : m_db->prepare(
            "SELECT time, metric, value FROM run_series WHERE run_id = ?1 AND metric = ?2 ORDER BY time");
    st.bind(1, runId);
    if (!metric.empty())
        st.bind(2, metric);
    while (st.step())
        out.push_back({ st.columnDouble(0), st.columnText(1), st.columnDouble(2) });
    return out;
}

std::vector<SeriesPoint> RunStore::recordedSeries(int64_t runId)
{
    std::vector<SeriesPoint> out;
    auto st = m_db->prepare("SELECT time, metric, value FROM run_series WHERE run_id = ?1 ORDER BY seq");
    st.bind(1, runId);
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
