// SPDX-License-Identifier: Apache-2.0
#include "core/planner/study_store.h"

#include <cstdlib>

#include "core/storage/database.h"
#include "core/storage/schema.h"

namespace drasim::planner {

namespace {

/// "0" for a run to the end, "1@T" for one stopped early at simulated second T ("1" alone, from
/// stores written before the stop time was kept: unknown).
std::string encodeStop(const SeedOutcome& s)
{
    if (!s.stoppedEarly)
        return "0";
    return s.stoppedAtSeconds >= 0 ? "1@" + exactNumber(s.stoppedAtSeconds) : std::string("1");
}

bool decodeStop(const std::string& text, SeedOutcome& s)
{
    if (text == "0" || text == "1") {
        s.stoppedEarly = text == "1";
        return true;
    }
    if (text.rfind("1@", 0) != 0 || text.size() == 2)
        return false;
    char* end = nullptr;
    s.stoppedEarly = true;
    s.stoppedAtSeconds = std::strtod(text.c_str() + 2, &end);
    return *end == '\0' && s.stoppedAtSeconds >= 0;
}

/// One evaluation's seeds as text: "seed:stop:v1,v2;seed:stop:v1,v2" (encodeStop), values exact.
std::string encodeOutcome(const Evaluation& e)
{
    std::string out;
    for (size_t s = 0; s < e.seeds.size(); ++s) {
        if (s)
            out += ';';
        out += std::to_string(e.seeds[s].seed) + ":" + encodeStop(e.seeds[s]) + ":";
        for (size_t i = 0; i < e.seeds[s].values.size(); ++i) {
            if (i)
                out += ',';
            out += exactNumber(e.seeds[s].values[i]);
        }
    }
    return out;
}

std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t at = text.find(sep, start);
        parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos)
            return parts;
        start = at + 1;
    }
}

bool decodeOutcome(const std::string& text, size_t levels, std::vector<SeedOutcome>& out)
{
    out.clear();
    for (const std::string& part : split(text, ';')) {
        std::vector<std::string> f = split(part, ':');
        SeedOutcome s;
        if (f.size() != 3 || !decodeStop(f[1], s))
            return false;
        char* end = nullptr;
        s.seed = std::strtoull(f[0].c_str(), &end, 10);
        if (f[0].empty() || *end != '\0')
            return false;
        for (const std::string& v : split(f[2], ',')) {
            s.values.push_back(std::strtod(v.c_str(), &end));
            if (v.empty() || *end != '\0')
                return false;
        }
        if (s.values.size() != levels)
            return false;
        out.push_back(std::move(s));
    }
    return true;
}

} // namespace

StudyStore::StudyStore(const std::string& path)
    : m_db(std::make_unique<storage::Database>(path))
{
    storage::openSchema(*m_db); // the planner's tables are part of the store's one schema
}

StudyStore::~StudyStore() = default;

int64_t StudyStore::beginStudy(const std::string& name, const std::string& fingerprint, const Shard& shard,
    size_t shapes, size_t levels, const std::string& policy)
{
    storage::Transaction t(*m_db);
    m_db->prepare("INSERT INTO planner_studies (name, fingerprint, shard_index, shard_count, shapes, levels, "
                  "status, policy) "
                  "VALUES (?, ?, ?, ?, ?, ?, 'running', ?)")
        .bind(1, name)
        .bind(2, fingerprint)
        .bind(3, int64_t(shard.bisectionsOnly ? kBisectionStageIndex : shard.index))
        .bind(4, int64_t(shard.bisectionsOnly ? 0 : shard.count))
        .bind(5, int64_t(shapes))
        .bind(6, int64_t(levels))
        .bind(7, policy)
        .run();
    const int64_t id = m_db->lastInsertId();
    t.commit();
    return id;
}

void StudyStore::addEvaluation(int64_t study, const Evaluation& e)
{
    storage::Transaction t(*m_db);
    auto count = m_db->prepare("SELECT COUNT(*) FROM planner_evaluations WHERE study_id = ?");
    count.bind(1, study);
    count.step();
    const int64_t position = count.columnInt(0);
    m_db->prepare(
            "INSERT INTO planner_evaluations (study_id, position, mix, load, outcome) VALUES (?, ?, ?, ?, ?)")
        .bind(1, study)
        .bind(2, position)
        .bind(3, mixKey(e.mix))
        .bind(4, exactNumber(e.load))
        .bind(5, encodeOutcome(e))
        .run();
    t.commit();
}

void StudyStore::finishStudy(int64_t study, const std::string& status, const std::string& reportJson)
{
    storage::Transaction t(*m_db);
    m_db->prepare("UPDATE planner_studies SET status = ?, report_json = ? WHERE id = ?")
        .bind(1, status)
        .bind(2, reportJson)
        .bind(3, study)
        .run();
    t.commit();
}

std::vector<StoredStudy> StudyStore::studies()
{
    std::vector<StoredStudy> out;
    auto st = m_db->prepare("SELECT id, name, fingerprint, shard_index, shard_count, shapes, levels, status, "
                            "policy FROM planner_studies ORDER BY id");
    while (st.step()) {
        StoredStudy s;
        s.id = st.columnInt(0);
        s.name = st.columnText(1);
        s.fingerprint = st.columnText(2);
        s.shardIndex = int(st.columnInt(3));
        s.shardCount = int(st.columnInt(4));
        s.shapes = size_t(st.columnInt(5));
        s.levels = size_t(st.columnInt(6));
        s.status = st.columnText(7);
        s.policy = st.columnText(8);
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<Evaluation> StudyStore::evaluations(const StoredStudy& study)
{
    std::vector<Evaluation> out;
    auto st = m_db->prepare(
        "SELECT mix, load, outcome FROM planner_evaluations WHERE study_id = ? ORDER BY position");
    st.bind(1, study.id);
    while (st.step()) {
        Evaluation e;
        const std::string mix = st.columnText(0), load = st.columnText(1);
        char* end = nullptr;
        e.load = std::strtod(load.c_str(), &end);
        const bool loadOk = !load.empty() && *end == '\0';
        if (!parseMixKey(mix, study.shapes, e.mix) || !loadOk
            || !decodeOutcome(st.columnText(2), study.levels, e.seeds))
            throw storage::StorageError(m_db->path() + ": study " + std::to_string(study.id)
                + ": malformed evaluation of mix \"" + mix + "\" at load \"" + load + "\"");
        out.push_back(std::move(e));
    }
    return out;
}

std::string StudyStore::report(int64_t study)
{
    auto st = m_db->prepare("SELECT report_json FROM planner_studies WHERE id = ?");
    st.bind(1, study);
    return st.step() ? st.columnText(0) : std::string();
}

} // namespace drasim::planner
