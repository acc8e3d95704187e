// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QObject>

#include "ui/models/pod_replay.h"

namespace drasim::ui {

/// The moment every replaying view shows: one run's replay and a time t within it. The timeline
/// moves it; the topology view (and any other) follows timeChanged(). The state at t is computed
/// once per move and shared.
class TimeCursor : public QObject
{
    Q_OBJECT
public:
    explicit TimeCursor(QObject* parent = nullptr);

    /// A new run to replay (null: nothing to show); the time goes to the run's end.
    void setReplay(std::shared_ptr<const PodReplay> replay);
    std::shared_ptr<const PodReplay> replay() const { return m_replay; }

    /// Moves to t, clamped to [0, end of the run].
    void setTime(sim::SimTime t);
    sim::SimTime time() const { return m_time; }
    sim::SimTime endTime() const { return m_replay ? m_replay->endTime() : 0; }
    const ReplayState& state() const { return m_state; }

Q_SIGNALS:
    void replayChanged();
    void timeChanged(qint64 time);

private:
    std::shared_ptr<const PodReplay> m_replay;
    sim::SimTime m_time = 0;
    ReplayState m_state;
};

} // namespace drasim::ui
