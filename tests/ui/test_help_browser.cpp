// SPDX-License-Identifier: Apache-2.0
// Help → User Guide shows the guide compiled into the program, and follows links between its pages.
#include <QFile>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include "ui/mainwindow.h"
#include "ui/widgets/help_browser.h"

using drasim::ui::HelpBrowser;
using drasim::ui::MainWindow;

namespace {

QString sourceText(const char* rel)
{
    QFile f(QString::fromUtf8(DRASIM_SOURCE_DIR) + QLatin1Char('/') + QLatin1String(rel));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

TEST(HelpBrowser, UserGuideIsTheOneInTheRepository)
{
    MainWindow w;
    w.showUserGuide();
    ASSERT_NE(w.helpBrowser(), nullptr);
    EXPECT_TRUE(w.helpBrowser()->isVisible());
    EXPECT_EQ(w.helpBrowser()->currentPage(), QStringLiteral("user-guide.md"));
    // The compiled-in page is the file in resources/docs, rendered (the heading's text, no '#').
    const QString source = sourceText("resources/docs/user-guide.md");
    ASSERT_FALSE(source.isEmpty());
    EXPECT_TRUE(w.helpBrowser()->text().startsWith(QStringLiteral("drasim user guide")));
    EXPECT_TRUE(w.helpBrowser()->text().contains(QStringLiteral("The Problems dock")));
}

TEST(HelpBrowser, FollowsTheLinkToTheScenarioFormat)
{
    HelpBrowser help;
    auto* browser = help.findChild<QTextBrowser*>();
    ASSERT_NE(browser, nullptr);
    emit browser->anchorClicked(QUrl(QStringLiteral("scenario-format.md")));
    EXPECT_EQ(help.currentPage(), QStringLiteral("scenario-format.md"));
    EXPECT_TRUE(help.text().startsWith(QStringLiteral("The Scenario format")));
}

TEST(HelpBrowser, TheScenarioFormatLinksToTheStudyFormat)
{
    HelpBrowser help;
    ASSERT_TRUE(help.showPage(QStringLiteral("scenario-format.md")));
    auto* browser = help.findChild<QTextBrowser*>();
    ASSERT_NE(browser, nullptr);
    ASSERT_TRUE(browser->toHtml().contains(QStringLiteral("study-format.md")));
    emit browser->anchorClicked(QUrl(QStringLiteral("study-format.md")));
    EXPECT_EQ(help.currentPage(), QStringLiteral("study-format.md"));
    EXPECT_TRUE(help.text().startsWith(QStringLiteral("The Study format")));
}

TEST(HelpBrowser, UnknownPageIsRefusedAndTheCurrentOneKept)
{
    HelpBrowser help;
    EXPECT_FALSE(help.showPage(QStringLiteral("no-such-page.md")));
    EXPECT_EQ(help.currentPage(), QStringLiteral("user-guide.md"));
}
