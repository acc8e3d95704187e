// SPDX-License-Identifier: Apache-2.0
// View › Theme: a light or dark palette for the whole application, remembered in QSettings; the
// charts follow it.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QMenuBar>

#include <gtest/gtest.h>

#include "ui/charts/frontier_chart_view.h"
#include "ui/mainwindow.h"
#include "ui/models/plan_models.h"
#include "ui/pages/plan_page.h"
#include "ui/theme.h"

using drasim::ui::Theme;

TEST(Theme, NamesRoundTripAndUnknownMeansSystem)
{
    for (Theme t : { Theme::System, Theme::Light, Theme::Dark })
        EXPECT_EQ(drasim::ui::themeFromName(drasim::ui::themeName(t)), t);
    EXPECT_EQ(drasim::ui::themeFromName(QStringLiteral("solarized")), Theme::System);
    EXPECT_TRUE(drasim::ui::isDarkPalette(drasim::ui::themePalette(Theme::Dark)));
    EXPECT_FALSE(drasim::ui::isDarkPalette(drasim::ui::themePalette(Theme::Light)));
}

TEST(Theme, TheWindowAppliesRemembersAndChecksTheChoice)
{
    drasim::ui::MainWindow w;
    w.show();
    auto* chart = w.planPage()->frontierChart();
    w.setTheme(Theme::Dark);
    QCoreApplication::processEvents(); // widgets hear of an application palette by a posted event
    EXPECT_TRUE(drasim::ui::isDarkPalette(QApplication::palette()));
    EXPECT_EQ(drasim::ui::savedTheme(), Theme::Dark);
    EXPECT_EQ(chart->chart()->theme(), QChart::ChartThemeDark);
    // The menu shows the choice.
    QAction* dark = nullptr;
    for (QAction* menu : w.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->menu())
                    for (QAction* t : a->menu()->actions())
                        if (t->data().toString() == QLatin1String("dark"))
                            dark = t;
    ASSERT_TRUE(dark);
    EXPECT_TRUE(dark->isChecked());

    w.setTheme(Theme::Light);
    QCoreApplication::processEvents();
    EXPECT_FALSE(drasim::ui::isDarkPalette(QApplication::palette()));
    EXPECT_EQ(chart->chart()->theme(), QChart::ChartThemeLight);
    EXPECT_FALSE(dark->isChecked());
    w.setTheme(Theme::System);
    EXPECT_EQ(drasim::ui::savedTheme(), Theme::System);
}
