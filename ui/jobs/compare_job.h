// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>
#include <QThreadPool>

#include "core/compare/comparison.h"
#include "core/storage/run_store.h"

namespace drasim::ui {

using RunList = std::vector<storage::RunInfo>;

/// Reads the run store off the UI thread: the list of runs, and two runs compared
/// (core/compare: KPIs with differences, series on one time axis). Only the newest request of
/// each kind delivers; the destructor waits for the reads in flight.
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
    quint64 m_listGeneration = 0;
    quint64 m_compareGeneration = 0;
    QThreadPool m_pool; // waited for by its destructor, after the members the workers post to
};

} // namespace drasim::ui
