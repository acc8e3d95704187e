// SPDX-License-Identifier: Apache-2.0
// What the window tests of a run share: opening a scenario until its run is replayable, and
// saving a picture of the window when DRASIM_SCREENSHOT_DIR asks for them.
#pragma once

#include <cstdlib>

#include <QSignalSpy>
#include <QString>
#include <QWidget>

#include "tests/ui/source_path.h"
#include "ui/mainwindow.h"
#include "ui/pages/timeline_page.h"

/// Opens `scenario` in the window and waits until its simulated run can be replayed.
inline bool openAndReplay(drasim::ui::MainWindow& w, const QString& scenario = defaultScenario())
{
    QSignalSpy replay(w.timelinePage(), &drasim::ui::TimelinePage::replayReady);
    w.openPaths({ scenario });
    return replay.wait(180000);
}

/// Saves the window as `name` in DRASIM_SCREENSHOT_DIR, when it is set.
inline void saveWindowShot(QWidget& w, const char* name)
{
    if (const char* dir = std::getenv("DRASIM_SCREENSHOT_DIR"))
        w.grab().save(QString::fromUtf8(dir) + QLatin1Char('/') + QString::fromUtf8(name));
}
