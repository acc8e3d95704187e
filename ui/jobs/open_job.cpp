// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/open_job.h"

#include <chrono>
#include <string_view>

#include "core/common/progress.h"

namespace drasim::ui {

/// What an open hands back: the session, how far it read, when its phases happened.
struct OpenJob::Outcome
{
    std::shared_ptr<session::Session> session;
    QStringList paths;
    bool cancelled = false;
    double fractionRead = 0;
    Timeline timeline;
};

namespace {

/// Keeps the share read and posts it to the job as its `progressChanged` signal about ten times
/// a second (the first report always).
template <class Job> class OpenProgress : public ProgressSink
{
public:
    explicit OpenProgress(typename JobThreads<Job>::Run run)
        : m_run(std::move(run))
    { }
    void progress(double fraction, std::string_view) override
    {
        m_fraction = fraction;
        const auto now = std::chrono::steady_clock::now();
        if (now - m_last < std::chrono::milliseconds(100))
            return;
        m_last = now;
        m_run.post([fraction](Job* job) { Q_EMIT job->progressChanged(fraction); });
    }
    double fraction() const { return m_fraction; }

private:
    typename JobThreads<Job>::Run m_run;
    double m_fraction = 0;
    std::chrono::steady_clock::time_point m_last {};
};

} // namespace

OpenJob::OpenJob(QObject* parent)
    : QObject(parent)
{ }

OpenJob::~OpenJob() = default;

void OpenJob::start(const QStringList& paths, const api::FeatureGates& gates)
{
    Timeline timeline;
    timeline.requested = Timeline::Clock::now();
    std::vector<std::string> files;
    for (const auto& p : paths)
        files.push_back(p.toStdString());
    // A newer open cancels this one and drops its signals; a cancel() from the user keeps it the
    // newest, so it lands as cancelled().
    m_cancelRequested = false;
    m_runs.start(
        QStringLiteral("drasim-open"),
        [timeline, files, gates, paths](const Runs::Run& run) {
            auto outcome = std::make_shared<Outcome>();
            outcome->paths = paths;
            outcome->timeline = timeline;
            outcome->timeline.workerStarted = Timeline::Clock::now();
            OpenProgress<OpenJob> progress(run);
            outcome->session = std::make_shared<session::Session>();
            outcome->session->setFeatureGates(gates);
            outcome->session->open(files, &run.cancel(), &progress);
            outcome->timeline.workerFinished = Timeline::Clock::now();
            outcome->cancelled = run.cancel().cancelled();
            outcome->fractionRead = progress.fraction();
            return std::shared_ptr<const Outcome>(std::move(outcome));
        },
        [](OpenJob* job, const std::shared_ptr<const Outcome>& outcome) { job->land(*outcome); });
    Q_EMIT started(paths);
}

void OpenJob::land(const Outcome& outcome)
{
    m_last = outcome.timeline;
    m_last.delivered = Timeline::Clock::now();
    if (outcome.cancelled || m_cancelRequested)
        Q_EMIT cancelled(outcome.fractionRead);
    else
        Q_EMIT opened(outcome.session, outcome.paths);
}

} // namespace drasim::ui
