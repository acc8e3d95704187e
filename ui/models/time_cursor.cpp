// SPDX-License-Identifier: Apache-2.0
#include "ui/models/time_cursor.h"

#include <algorithm>

namespace drasim::ui {

TimeCursor::TimeCursor(QObject* parent)
    : QObject(parent)
{ }

void TimeCursor::setReplay(std::shared_ptr<const PodReplay> replay)
{
    m_replay = std::move(replay);
    m_time = m_replay ? m_replay->endTime() : 0;
    m_state = m_replay ? m_replay->stateAt(m_time) : ReplayState {};
    Q_EMIT replayChanged();
    Q_EMIT timeChanged(m_time);
}

void TimeCursor::setTime(sim::SimTime t)
{
    t = std::clamp<sim::SimTime>(t, 0, endTime());
    if (t == m_time)
        return;
    m_time = t;
    m_state = m_replay ? m_replay->stateAt(t) : ReplayState {};
    Q_EMIT timeChanged(m_time);
}

} // namespace drasim::ui
