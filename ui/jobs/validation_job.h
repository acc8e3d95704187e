// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>

#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "ui/jobs/background_pool.h"

namespace drasim::ui {

/// What checking one buffer found: the same diagnostics `drasim validate` prints for that file
/// (or the scenario reader's, for a Scenario), and the objects that loaded without errors.
struct ValidationOutcome
{
    QString fileName;
    std::vector<Diagnostic> diagnostics;
    std::shared_ptr<const api::ObjectSet> objects;
};

/// Checks editor text on a worker thread with the core loader and validator. Only the newest
/// request is reported: typing faster than checking never shows a stale result. The destructor
/// waits for workers still in flight.
class ValidationJob : public QObject
{
    Q_OBJECT
public:
    explicit ValidationJob(QObject* parent = nullptr);
    ~ValidationJob() override;

    void validate(const QString& text, const QString& fileName);
    bool isRunning() const;

Q_SIGNALS:
    void validated(std::shared_ptr<const drasim::ui::ValidationOutcome> outcome);

private:
    quint64 m_generation = 0;
    QList<QFuture<void>> m_inFlight;
    BackgroundPool m_pool; // last: destroyed first, waiting for the workers
};

} // namespace drasim::ui
