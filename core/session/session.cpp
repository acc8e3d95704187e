// SPDX-License-Identifier: Apache-2.0
#include "core/session/session.h"

#include <chrono>

#include "core/scenario/prepare.h"
#include "core/session/one_shot.h"
#include "core/yamlio/loader.h"

namespace drasim::session {

namespace {

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

const api::ObjectSet& emptyObjects()
{
    static const api::ObjectSet kEmpty;
    return kEmpty;
}

} // namespace

Session::Session() = default;
Session::~Session() = default;

void Session::reset(const std::vector<std::string>& paths, bool detect)
{
    m_inputs.clear();
    m_objects.reset();
    m_scenario.reset();
    m_prepared.reset();
    m_diags = Diagnostics();
    m_openedCleanly = false;
    m_times = OpenTimes();
    for (const auto& p : paths)
        m_inputs.push_back({ p, detect ? detectInputKind(p) : InputKind::Manifests });
}

bool Session::open(const std::vector<std::string>& paths, const CancelToken* cancel, ProgressSink* progress)
{
    reset(paths, true);
    if (m_inputs.size() == 1 && m_inputs.front().kind == InputKind::Scenario)
        return m_openedCleanly = openScenario(paths.front(), cancel);
    return m_openedCleanly = loadManifests(paths, cancel, progress);
}

bool Session::openManifests(const std::vector<std::string>& paths)
{
    reset(paths, false);
    return m_openedCleanly = loadManifests(paths, nullptr, nullptr);
}

bool Session::loadManifests(
    const std::vector<std::string>& paths, const CancelToken* cancel, ProgressSink* progress)
{
    yamlio::LoadOptions options;
    options.cancel = cancel;
    options.progress = progress;
    options.gates = m_gates;
    const auto start = std::chrono::steady_clock::now();
    yamlio::LoadResult loaded = yamlio::loadPaths(paths, options);
    m_times.readMs = msSince(start);
    m_diags.append(loaded.diagnostics);
    m_objects = std::make_shared<const api::ObjectSet>(std::move(loaded.objects));
    return !m_diags.hasErrors() && !loaded.cancelled;
}

bool Session::openScenario(const std::string& path, const CancelToken* cancel)
{
    const auto start = std::chrono::steady_clock::now();
    m_scenario = scenario::loadScenario(path, m_diags);
    m_times.readMs = msSince(start);
    if (!m_scenario)
        return false;
    scenario::PrepareOptions options;
    options.cancel = cancel;
    options.threads = 0; // one scenario at a time here: a large cluster is built on every core
    const auto prepareStart = std::chrono::steady_clock::now();
    auto prepared = scenario::prepareScenario(*m_scenario, options, m_diags);
    m_times.prepareMs = msSince(prepareStart);
    if (!prepared)
        return false;
    m_prepared = std::make_shared<const sim::PreparedScenario>(std::move(*prepared));
    m_objects = m_prepared->objects;
    return true;
}

InputKind Session::kind() const
{
    return m_scenario ? InputKind::Scenario : InputKind::Manifests;
}

const api::ObjectSet& Session::objects() const
{
    return m_objects ? *m_objects : emptyObjects();
}

std::unique_ptr<scheduler::Cluster> Session::buildCluster(const scheduler::SchedulerOptions& options)
{
    if (!m_openedCleanly || !m_objects)
        return nullptr;
    auto cluster = std::make_unique<scheduler::Cluster>(*m_objects, clusterOptionsFor(m_gates, options));
    m_diags.append(cluster->diagnostics());
    if (cluster->diagnostics().hasErrors())
        return nullptr;
    return cluster;
}

storage::RunStore& Session::openRunStore(const std::string& path)
{
    m_runStore.reset(); // close the previous store first: a failure leaves none open
    m_runStore = std::make_unique<storage::RunStore>(path);
    return *m_runStore;
}

} // namespace drasim::session
