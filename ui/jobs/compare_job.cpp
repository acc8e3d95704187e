// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/compare_job.h"

#include "core/storage/database.h"

namespace drasim::ui {

CompareJob::CompareJob(QObject* parent)
    : QObject(parent)
{ }

CompareJob::~CompareJob() = default;

void CompareJob::listRuns(const QString& storePath)
{
    using Listed = Read<RunList>;
    m_lists.start(
        QStringLiteral("drasim-list-runs"),
        [path = storePath.toStdString()](const JobThreads<CompareJob>::Run&) {
            auto read = std::make_shared<Listed>();
            auto runs = std::make_shared<RunList>();
            if (path.empty()) {
                read->error = tr("no run store");
            } else {
                try {
                    storage::RunStore store(path);
                    *runs = store.runs();
                } catch (const std::exception& e) {
                    read->error = QString::fromStdString(e.what());
                }
            }
            read->found = std::move(runs);
            return std::shared_ptr<const Listed>(std::move(read));
        },
        [](CompareJob* job, const std::shared_ptr<const Listed>& read) {
            Q_EMIT job->runsListed(read->found, read->error);
        });
}

void CompareJob::compare(const QString& storePath, qint64 baseline, qint64 other)
{
    using Compared = Read<compare::Comparison>;
    m_comparisons.start(
        QStringLiteral("drasim-compare"),
        [path = storePath.toStdString(), baseline, other](const JobThreads<CompareJob>::Run&) {
            auto read = std::make_shared<Compared>();
            try {
                storage::RunStore store(path);
                const auto runs = compare::loadRuns(store, { baseline, other });
                read->found = std::make_shared<const compare::Comparison>(compare::compareRuns(runs));
            } catch (const std::exception& e) {
                read->error = QString::fromStdString(e.what());
            }
            return std::shared_ptr<const Compared>(std::move(read));
        },
        [](CompareJob* job, const std::shared_ptr<const Compared>& read) {
            Q_EMIT job->compared(read->found, read->error);
        });
}

} // namespace drasim::ui
