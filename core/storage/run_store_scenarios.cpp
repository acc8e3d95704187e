// SPDX-License-Identifier: Apache-2.0
// RunStore: scenario revisions with their files, and variants (schema 4).
#include "core/storage/database.h"
#include "core/storage/run_store.h"

namespace drasim::storage {

SavedRevision RunStore::saveScenarioRevision(const std::string& scenario, const std::string& hash,
    const std::string& mainFile, const std::vector<StoredFile>& files,
    const std::optional<VariantOrigin>& variantOf)
{
    if (mainFile.empty())
        throw StorageError(
            m_db->path() + ": scenario " + scenario + ": a saved revision needs its main file");
    Transaction tx(*m_db);
    SavedRevision out;
    out.revision = revisionFor(scenario, hash);
    auto main
        = m_db->prepare("SELECT main_file FROM scenario_revisions WHERE scenario = ?1 AND revision = ?2");
    main.bind(1, scenario).bind(2, out.revision);
    if (main.step() && !main.columnText(0).empty()) {
        tx.commit(); // the content was saved before (revisionFor may not have written anything)
        return out;
    }
    m_db->prepare("UPDATE scenario_revisions SET main_file = ?3 WHERE scenario = ?1 AND revision = ?2")
        .bind(1, scenario)
        .bind(2, out.revision)
        .bind(3, mainFile)
        .run();
    auto file = m_db->prepare(
        "INSERT INTO scenario_files(scenario, revision, path, content) VALUES(?1, ?2, ?3, ?4)");
    for (const StoredFile& f : files) {
        file.bind(1, scenario).bind(2, out.revision).bind(3, f.path).bindBlob(4, f.content);
        file.run();
    }
    if (variantOf) {
        m_db->prepare("INSERT INTO scenario_variants(scenario, revision, base, base_revision, overrides) "
                      "VALUES(?1, ?2, ?3, ?4, ?5)")
            .bind(1, scenario)
            .bind(2, out.revision)
            .bind(3, variantOf->base)
            .bind(4, variantOf->baseRevision)
            .bind(5, variantOf->overrides)
            .run();
    }
    tx.commit();
    out.created = true;
    return out;
}

std::vector<std::string> RunStore::revisedScenarioNames()
{
    std::vector<std::string> out;
    auto st = m_db->prepare("SELECT DISTINCT scenario FROM scenario_revisions ORDER BY scenario");
    while (st.step())
        out.push_back(st.columnText(0));
    return out;
}

std::vector<ScenarioRevision> RunStore::revisionsOf(const std::string& scenario)
{
    std::vector<ScenarioRevision> out;
    auto st = m_db->prepare(
        "SELECT r.revision, r.hash, r.main_file, r.created_at, "
        "(SELECT COUNT(*) FROM scenario_files f WHERE f.scenario = r.scenario AND f.revision = r.revision), "
        "(SELECT COUNT(*) FROM runs WHERE runs.scenario = r.scenario AND runs.scenario_revision = "
        "r.revision), "
        "v.base, v.base_revision, v.overrides "
        "FROM scenario_revisions r LEFT JOIN scenario_variants v "
        "ON v.scenario = r.scenario AND v.revision = r.revision "
        "WHERE r.scenario = ?1 ORDER BY r.revision");
    st.bind(1, scenario);
    while (st.step()) {
        ScenarioRevision r;
        r.scenario = scenario;
        r.revision = st.columnInt(0);
        r.hash = st.columnText(1);
        r.mainFile = st.columnText(2);
        r.createdAt = st.columnText(3);
        r.files = st.columnInt(4);
        r.runs = st.columnInt(5);
        if (!st.columnIsNull(6))
            r.variantOf = VariantOrigin { st.columnText(6), st.columnInt(7), st.columnText(8) };
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<StoredFile> RunStore::scenarioFiles(const std::string& scenario, int64_t revision)
{
    std::vector<StoredFile> out;
    auto st = m_db->prepare(
        "SELECT path, content FROM scenario_files WHERE scenario = ?1 AND revision = ?2 ORDER BY path");
    st.bind(1, scenario).bind(2, revision);
    while (st.step())
        out.push_back({ st.columnText(0), st.columnText(1) });
    return out;
}

} // namespace drasim::storage
