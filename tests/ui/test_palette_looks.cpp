// SPDX-License-Identifier: Apache-2.0
// Light and dark palettes: every colour with a meaning keeps its contrast on both, and nothing the
// window paints is fixed to one palette (the error banner, the editor's YAML colours).
#include <algorithm>
#include <random>

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QVBoxLayout>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/mainwindow.h"
#include "ui/models/tone_colors.h"
#include "ui/pages/editor_page.h"
#include "ui/theme.h"
#include "ui/widgets/code_editor.h"
#include "ui/widgets/error_banner.h"

using drasim::ui::contrastRatio;
using drasim::ui::MainWindow;
using drasim::ui::Theme;
using drasim::ui::Tone;

namespace {

/// WCAG AA for normal text.
constexpr double kReadable = 4.5;

/// The window in a theme, with the posted palette change delivered to every widget.
void switchTheme(MainWindow& w, Theme theme)
{
    w.setTheme(theme);
    QCoreApplication::processEvents();
}

} // namespace

TEST(ToneColors, EveryToneReadsOnTheLightAndTheDarkPalette)
{
    for (Theme theme : { Theme::Light, Theme::Dark }) {
        const QPalette p = drasim::ui::themePalette(theme);
        for (Tone tone : { Tone::Good, Tone::Bad, Tone::Warning, Tone::Muted }) {
            const QColor c = drasim::ui::toneColor(tone, p);
            for (auto role : { QPalette::Base, QPalette::AlternateBase, QPalette::Window })
                EXPECT_GE(contrastRatio(c, p.color(role)), kReadable)
                    << drasim::ui::themeName(theme).toStdString() << " tone " << int(tone) << " on role "
                    << int(role) << ": " << c.name().toStdString() << " on "
                    << p.color(role).name().toStdString();
            // A tone is told apart from plain text.
            EXPECT_NE(c, p.color(QPalette::Text));
        }
    }
}

TEST(ToneColors, ContrastRatioLaws)
{
    EXPECT_DOUBLE_EQ(contrastRatio(Qt::black, Qt::white), 21.0);
    std::mt19937 rng(12);
    std::uniform_int_distribution<int> channel(0, 255);
    for (int i = 0; i < 500; ++i) {
        const QColor a(channel(rng), channel(rng), channel(rng));
        const QColor b(channel(rng), channel(rng), channel(rng));
        const double r = contrastRatio(a, b);
        EXPECT_DOUBLE_EQ(r, contrastRatio(b, a));
        EXPECT_GE(r, 1.0);
        EXPECT_LE(r, 21.0);
        EXPECT_DOUBLE_EQ(contrastRatio(a, a), 1.0);
        // A blend's ends are its inputs.
        EXPECT_EQ(drasim::ui::blend(a, b, 0.0).rgb(), a.rgb());
        EXPECT_EQ(drasim::ui::blend(a, b, 1.0).rgb(), b.rgb());
    }
}

TEST(PaletteLooks, TheErrorBannerIsTintedFromThePaletteLightOrDark)
{
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.yaml"));
    {
        QFile f(bad);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: Node\nmetadata:\n  name: [broken\n");
    }
    MainWindow w;
    w.setRunStorePath(QString());
    w.resize(1000, 700);
    w.show();
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    w.openPaths({ bad });
    ASSERT_TRUE(opened.wait(20000));
    auto* banner = w.findChild<drasim::ui::ErrorBanner*>();
    ASSERT_TRUE(banner);
    ASSERT_TRUE(banner->isVisible());

    for (Theme theme : { Theme::Dark, Theme::Light }) {
        switchTheme(w, theme);
        const bool dark = theme == Theme::Dark;
        // What is on screen: a pixel of the banner right of its text, where only the tint is.
        const QImage shot = banner->grab().toImage();
        const QColor painted = shot.pixelColor(shot.width() - 8, shot.height() / 2);
        EXPECT_EQ(painted.lightness() < 128, dark) << painted.name().toStdString();
        EXPECT_EQ(painted.rgb(), banner->background().rgb());
        EXPECT_GE(contrastRatio(banner->palette().color(QPalette::WindowText), painted), kReadable);
    }
    switchTheme(w, Theme::System);
}

TEST(PaletteLooks, NoWidgetOfTheWindowFixesAColourInAStyleSheet)
{
    // A colour in a style sheet ignores the palette: on the other palette it is wrong.
    MainWindow w;
    w.show();
    const QRegularExpression colour(QStringLiteral(R"(#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\()"));
    QList<QWidget*> widgets = w.findChildren<QWidget*>();
    widgets << &w;
    for (QWidget* widget : widgets)
        EXPECT_FALSE(colour.match(widget->styleSheet()).hasMatch())
            << widget->metaObject()->className() << " " << widget->objectName().toStdString() << ": "
            << widget->styleSheet().toStdString();
}

TEST(PaletteLooks, TheEditorsYamlColoursFollowAThemeChange)
{
    MainWindow w;
    w.setRunStorePath(QString());
    w.show();
    QSignalSpy checked(w.editorPage(), &drasim::ui::EditorPage::checked);
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    ASSERT_TRUE(checked.wait(60000));
    QTextDocument* text = w.editorPage()->editor()->document();
    for (Theme theme : { Theme::Dark, Theme::Light }) {
        switchTheme(w, theme);
        const QColor base = w.editorPage()->editor()->palette().color(QPalette::Base);
        int coloured = 0;
        for (QTextBlock b = text->begin(); b.isValid(); b = b.next())
            for (const QTextLayout::FormatRange& r : b.layout()->formats())
                if (r.format.hasProperty(QTextFormat::ForegroundBrush)) {
                    ++coloured;
                    const QColor fg = r.format.foreground().color();
                    EXPECT_GE(contrastRatio(fg, base), kReadable)
                        << "line " << b.blockNumber() + 1 << ": " << fg.name().toStdString() << " on "
                        << base.name().toStdString();
                }
        EXPECT_GT(coloured, 20); // the file is highlighted at all
    }
    switchTheme(w, Theme::System);
}

TEST(PaletteLooks, ALongErrorNeverWidensTheWindow)
{
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* banner = new drasim::ui::ErrorBanner(&window);
    layout->addWidget(banner);
    layout->addStretch(1);
    window.resize(600, 300);
    window.show();
    const int before = window.minimumSizeHint().width();
    // One word of 400 characters: nothing to wrap at.
    banner->setText(QStringLiteral("<b>1 error in the input.</b> ") + QString(400, QLatin1Char('x')));
    QApplication::processEvents();
    EXPECT_LE(window.minimumSizeHint().width(), std::max(before, 100));
    EXPECT_EQ(window.width(), 600);
}
