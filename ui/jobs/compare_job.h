// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "core/compare/comparison.h"
#include "core/storage/run_store.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

using RunList = std::vector<storage::RunInfo>;

/// Reads the run store off the UI thread: the list of runs, and two runs compared
/// (core/compare: KPIs with differences, series on one time axis). Only the newest request of
/// each kind delivers; a read cannot be stopped, so a request waits for the read of its kind in
/// flight, and of those waiting only the newest runs (JobThreads, one at a time). The destructor
/// waits for the reads in flight.
class CompareJob : public QObject
{
    Q_OBJECT
public:
    explicit CompareJob(QObject* parent = nullptr);
    ~CompareJob() override;

    void listRuns(const QString& storePath);
    /// Run `baseline` against run `other`.
    void compare(const QString& storePath, qint64 baseline, qint64 other);

Q_SIGNALS:
    /// The runs, newest first; error says why the store could not be read (runs empty then).
    void runsListed(std::shared_ptr<const drasim::ui::RunList> runs, const QString& error);
    /// The comparison, or null with the reason ("run 7 is not in the store ...").
    void compared(std::shared_ptr<const drasim::compare::Comparison> comparison, const QString& error);

private:
    /// What a read found, or why it could not.
    template <class Found> struct Read
    {
        std::shared_ptr<const Found> found;
        QString error;
    };
    JobThreads<CompareJob> m_lists { this, JobThreads<CompareJob>::Overlap::OneAtATime };
    JobThreads<CompareJob> m_comparisons { this, JobThreads<CompareJob>::Overlap::OneAtATime };
};

} // namespace drasim::ui
