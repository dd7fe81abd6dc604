<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AnalysisResults</name>
    <message>
        <source>Accuracy vs budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy (%), 95% bootstrap CI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overall accuracy; the %1 per-task rows are on the per-task radar.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End-to-end time vs visual tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visual tokens per question (mean)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End-to-end time per question (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Break-even count N* vs budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N* (videos that repay the offline cost)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 row(s) with no per-video saving (N* infinite) are not drawn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Support origin: donor − current R95</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Δ R95, simultaneous band</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>donor − current R95</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Above zero: a support chosen on another video leaves larger residuals than the video&apos;s own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stress diagnostic: random − learned residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codebook comparison: other − reference residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual statistic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Difference, 95% bootstrap CI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>random − learned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other − reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Above zero: the learned codebook leaves smaller residuals than random exemplars of the same size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Above zero: the other codebook leaves larger residuals.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AnswerStatistics</name>
    <message>
        <source>Compute dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The precision the vision encoder and the language model compute in (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading and sampling the video&apos;s frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The vision encoder and projector turning frames into visual tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reducing the visual tokens to the budget with the selected method (Dense keeps them all and compresses nothing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language model reading the whole input (prompt and visual tokens) once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Producing the answer token by token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the features from a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time of the pipeline stage “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms (cached)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stages run for this question; stages marked cached were paid by an earlier question and are not counted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visual tokens (content + layout)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visual tokens entering the language model: the compressed content tokens plus the backbone&apos;s layout tokens (LLaVA&apos;s image_newline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source tokens N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visual tokens of the video before compression</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LLM input length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every token the language model reads: prompt, question and visual tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generated tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens of the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefill FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Floating-point operations of the prefill over the LLM input length (2 per multiply-add, all layers)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HelpDialogs</name>
    <message>
        <source>The user guide is not part of this build.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONCE Studio User Guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous / next frame (frame view)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left / Right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First / last frame (frame view)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Home / End</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the group selection (frame view)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Escape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom in / out / fit (frame view; or the wheel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ / − / 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play or pause (Playback)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainDocks</name>
    <message>
        <source>Budget</source>
        <translation></translation>
    </message>
    <message>
        <source>Playback</source>
        <translation></translation>
    </message>
    <message>
        <source>Charts</source>
        <translation></translation>
    </message>
    <message>
        <source>Question</source>
        <translation></translation>
    </message>
    <message>
        <source>Trainer</source>
        <translation></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation></translation>
    </message>
    <message>
        <source>Codebook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Projector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A/B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainMenus</name>
    <message>
        <source>&amp;File</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Open Video…</source>
        <translation></translation>
    </message>
    <message>
        <source>Open &amp;Feature File…</source>
        <translation></translation>
    </message>
    <message>
        <source>Open &amp;Codebook…</source>
        <translation></translation>
    </message>
    <message>
        <source>Open &amp;Model Folder…</source>
        <translation></translation>
    </message>
    <message>
        <source>Connect to &amp;Server…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disconnect from Se&amp;rver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected to %1: questions are answered there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions are answered on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Evaluation Results…</source>
        <translation></translation>
    </message>
    <message>
        <source>Open &amp;Analysis Results…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sa&amp;ve Session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load &amp;Demo</source>
        <translation></translation>
    </message>
    <message>
        <source>Export Chart &amp;Image…</source>
        <translation></translation>
    </message>
    <message>
        <source>Export Chart &amp;Data…</source>
        <translation></translation>
    </message>
    <message>
        <source>Export &amp;Overlay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current &amp;Frame…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All Frames as a &amp;Grid…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The &amp;Strip…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every Frame as an Image &amp;Sequence (for a video)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Current Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Next Frame</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Previous Frame</source>
        <translation></translation>
    </message>
    <message>
        <source>C&amp;lear Group Selection</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Compression</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Double Budget</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Halve Budget</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Measure Budget Sweep</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Cancel Running Work</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About ONCE Studio</source>
        <translation></translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>OverlayClipExport</name>
    <message>
        <source>%1 s · groups of frame %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the overlaid clip</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OverlayExport</name>
    <message>
        <source>Frame %1 · %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is nothing to export (open a video first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown image format “%1” (use .png, .jpg or .bmp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is nothing to export: open a video first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 frames are more than an image sequence takes (at most %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists: choose an empty folder or another name, nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1: unsupported image format (use .png, .svg or .pdf)</source>
        <translation></translation>
    </message>
    <message>
        <source>%1: the image could not be written</source>
        <translation></translation>
    </message>
    <message>
        <source>Token budget B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed-up over Dense (×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: end-to-end speed-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: prefill speed-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dense (%1 visual tokens, %2 ms end to end)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dense: accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured by once bench on %1 (%2), %3, sampling %4, %5 new tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No accuracy in this table (once bench --accuracy RESULTS adds it).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QtAudioSink</name>
    <message>
        <source>no audio output device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the audio device %1 takes neither float nor 16-bit sound at %2 Hz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the audio device could not be opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the audio device stopped taking sound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the audio device failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VersionInfo</name>
    <message>
        <source>%1 (built with %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>runtime loaded, no CUDA device visible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>ONCE Studio: video-token compression with a global codebook</source>
        <translation></translation>
    </message>
    <message>
        <source>Load the embedded demo.</source>
        <translation></translation>
    </message>
    <message>
        <source>Load the demo, save the window to FILE and quit.</source>
        <translation></translation>
    </message>
    <message>
        <source>Interface language for this run (en, zh_CN).</source>
        <translation></translation>
    </message>
    <message>
        <source>Videos, feature files, codebooks or model folders.</source>
        <translation></translation>
    </message>
    <message>
        <source>Reopen the session saved in FILE (.oncesession); --session FILE works too.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::AbAnswers</name>
    <message>
        <source>A question about the video, asked under A and under B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question for both sides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most tokens of each answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask &amp;Both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Both answers come from %1 (remote), with its model and codebook.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Both answers come from %1 on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer the question under A&apos;s settings, then under B&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answering under A and B</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n output token(s)</source>
        <translation>
            <numerusform>%n output token</numerusform>
            <numerusform>%n output tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>once::studio::AbCompareView</name>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Difference&lt;/b&gt; (B compared with A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Method of side %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget of side %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Budget:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs a codebook: open one (File ▸ Open Codebook…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at B = %2: %3 output tokens of %4 · compressed in %5 ms%6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (prepared now in %1 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 % of the tokens grouped on both sides kept their group.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>moved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dropped by A only: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dropped by B only: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by both: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::AnalysisChart</name>
    <message>
        <source>Analyses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Analysis or Evaluation CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CSV written by once eval report --csv, once analyze stress, support-origin or break-even --csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the CSV of an evaluation (accuracy or efficiency) or of an analysis (stress, support origin, break-even) to chart it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::AnswerTarget</name>
    <message>
        <source>Connected to %1: open a video to ask about it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server answers about a video file: open the video itself, not its feature file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answering needs a model folder (File ▸ Open Model Folder…): a Hugging Face checkpoint as downloaded, such as %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo encoder has no language model, so it cannot answer; the overlay, the budget slider and the charts work without one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The overlay, the budget slider and the charts work without one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a video to ask about it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::AudioPlayback</name>
    <message>
        <source>the clip has no sound track</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sound: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::BatchPanel</name>
    <message>
        <source>A folder of videos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dense (no compression)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run Batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export Report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visual tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compression (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End to end (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Videos:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Methods:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B&amp;udgets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repetitions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warm-up:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The batch failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The batch was cancelled; nothing was measured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model folder first (File ▸ Open Model Folder…): the batch measures prefill and decoding with its language model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder that holds videos.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs a codebook file: open one (File ▸ Open Codebook…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at least one method.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budgets are positive whole numbers, e.g. &quot;16, 64, 256&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n video(s) found</source>
        <translation>
            <numerusform>%n video found</numerusform>
            <numerusform>%n videos found</numerusform>
        </translation>
    </message>
    <message>
        <source>Ready to run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Running %n video(s)…</source>
        <translation>
            <numerusform>Running %n video…</numerusform>
            <numerusform>Running %n videos…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Batch over %n video(s)</source>
        <translation>
            <numerusform>Batch over %n video</numerusform>
            <numerusform>Batch over %n videos</numerusform>
        </translation>
    </message>
    <message>
        <source>Dense</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Measured %n video(s) on %1; the speed-up panel is in Charts ▸ Budget vs latency.</source>
        <translation>
            <numerusform>Measured %n video on %1; the speed-up panel is in Charts ▸ Budget vs latency.</numerusform>
            <numerusform>Measured %n videos on %1; the speed-up panel is in Charts ▸ Budget vs latency.</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing measured yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End-to-end speed-up over Dense</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder of Videos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the Batch Report into a Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::BudgetLatencyChart</name>
    <message>
        <source>FLOPs count %1 layout and %2 prompt tokens besides the visual ones.</source>
        <translation></translation>
    </message>
    <message>
        <source>Compression measured on %1 (remote), median of 3 runs per budget; prefill and end-to-end times are not measured on a server.</source>
        <translation></translation>
    </message>
    <message>
        <source>Measured on this machine, median of 3 runs per budget.</source>
        <translation></translation>
    </message>
    <message>
        <source>Budget vs latency</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Measure Sweep</source>
        <translation></translation>
    </message>
    <message>
        <source>Re-compress this video at budgets 1, 2, 4, … K and time each stage</source>
        <translation></translation>
    </message>
    <message>
        <source>Token budget B</source>
        <translation></translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation></translation>
    </message>
    <message>
        <source>Prefill TFLOPs (%1)</source>
        <translation></translation>
    </message>
    <message>
        <source>Press Measure Sweep to time re-compression over budgets.</source>
        <translation></translation>
    </message>
    <message>
        <source>ONCE compression (select + reassign + pool)</source>
        <translation></translation>
    </message>
    <message>
        <source>Assignment, once per video (%1 ms)</source>
        <translation></translation>
    </message>
    <message>
        <source>Dense: %1</source>
        <translation></translation>
    </message>
    <message>
        <source>prefill</source>
        <translation></translation>
    </message>
    <message>
        <source>end to end</source>
        <translation></translation>
    </message>
    <message>
        <source>Prefill FLOPs, Dense (N = %1)</source>
        <translation></translation>
    </message>
    <message>
        <source>No model loaded: FLOPs use %1&apos;s dimensions, and prefill and end-to-end times are not measured.</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 compression</source>
        <translation></translation>
    </message>
    <message>
        <source>Preparation, once per video (%1 ms)</source>
        <translation></translation>
    </message>
    <message>
        <source>Prefill FLOPs, %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring the sweep: the status bar shows its progress and can cancel it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweep was cancelled after %1 of %2 budgets: the chart shows those measured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new sweep was cancelled: the chart still shows the previous one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweep was cancelled before it finished: nothing was measured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Bench Results…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw a `once bench` table: speed-up over Dense (and accuracy) against the budget for each method</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::BudgetPanel</name>
    <message>
        <source>%1, measured on %2</source>
        <translation></translation>
    </message>
    <message>
        <source>Full (the paper&apos;s rule)</source>
        <translation></translation>
    </message>
    <message>
        <source>No reassignment (drop unselected)</source>
        <translation></translation>
    </message>
    <message>
        <source>Fixed random codewords</source>
        <translation></translation>
    </message>
    <message>
        <source>Frame-wise selection</source>
        <translation></translation>
    </message>
    <message>
        <source>Random grouping</source>
        <translation></translation>
    </message>
    <message>
        <source>Codeword output</source>
        <translation></translation>
    </message>
    <message>
        <source>Medoid output</source>
        <translation></translation>
    </message>
    <message>
        <source>Token budget (log scale)</source>
        <translation></translation>
    </message>
    <message>
        <source>Token budget</source>
        <translation></translation>
    </message>
    <message>
        <source>Variant</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Budget B:</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Variant:</source>
        <translation></translation>
    </message>
    <message>
        <source>Groups M:</source>
        <translation></translation>
    </message>
    <message>
        <source>Coverage:</source>
        <translation></translation>
    </message>
    <message>
        <source>Tokens to the LLM:</source>
        <translation></translation>
    </message>
    <message>
        <source>Compression:</source>
        <translation></translation>
    </message>
    <message>
        <source>Time:</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 of %2 used codewords</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 % of %2 tokens</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 → %2 tokens (%3×)</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 ms (select %2, reassign %3, pool %4)</source>
        <translation></translation>
    </message>
    <message>
        <source>Needs a codebook.</source>
        <translation></translation>
    </message>
    <message>
        <source>Works on the video alone (no codebook).</source>
        <translation></translation>
    </message>
    <message>
        <source>Follows: %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Compression method</source>
        <translation></translation>
    </message>
    <message>
        <source>ONCE or a peer baseline, compared at the same budget</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Method:</source>
        <translation></translation>
    </message>
    <message>
        <source>ONCE needs a codebook: open one (File ▸ Open Codebook…) or train one in the Trainer. The peer methods above work on the video alone.</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 ms (prepared once per video in %2 ms)</source>
        <translation></translation>
    </message>
    <message>
        <source>B = %1 is below the smallest budget: set to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B = %1 is more than K = %2, the codebook&apos;s size: set to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B = %1 is more than N = %2, the video&apos;s tokens: set to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The paper&apos;s rule: every token goes to its nearest codeword, the B most used codewords are kept, every token is reassigned to its nearest kept codeword and each group is averaged into one output token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As Full, but tokens whose nearest codeword was not kept are dropped instead of reassigned: coverage falls below 100 %.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeps the first B codewords of one seeded random order (the same for every video) instead of the most used ones; tokens are reassigned to them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cuts the frames into segments; each segment keeps its own most used codewords from an even share of B and reassigns its own tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full&apos;s group sizes filled with randomly chosen tokens: shows what the codewords&apos; grouping is worth.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full&apos;s groups, each output as its codeword instead of the mean of its tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full&apos;s groups, each output as the member closest (cosine) to the group&apos;s mean.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget B, from %1 to %2; a number outside is set to the nearest end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget B on a log scale up to K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget B on a log scale up to N (the video&apos;s tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updating… (the numbers below are for B = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The numbers below are for B = %1: the compression for the current setting was cancelled or failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Features:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n output token(s) (budget %1)</source>
        <translation>
            <numerusform>%n output token (budget %1)</numerusform>
            <numerusform>%n output tokens (budget %1)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>once::studio::ChartWidget</name>
    <message>
        <source>Export &amp;Image…</source>
        <translation></translation>
    </message>
    <message>
        <source>Save the chart as PNG, SVG or PDF</source>
        <translation></translation>
    </message>
    <message>
        <source>Export &amp;Data…</source>
        <translation></translation>
    </message>
    <message>
        <source>Save the chart&apos;s data as CSV</source>
        <translation></translation>
    </message>
    <message>
        <source>Export Chart Image</source>
        <translation></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation></translation>
    </message>
    <message>
        <source>Export Chart Data</source>
        <translation></translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation></translation>
    </message>
    <message>
        <source>Nothing to export yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::ChartsPanel</name>
    <message>
        <source>Code usage</source>
        <translation></translation>
    </message>
    <message>
        <source>Residuals</source>
        <translation></translation>
    </message>
    <message>
        <source>Budget vs latency</source>
        <translation></translation>
    </message>
    <message>
        <source>Per-task accuracy</source>
        <translation></translation>
    </message>
    <message>
        <source>Open Evaluation Results</source>
        <translation></translation>
    </message>
    <message>
        <source>Evaluation results (*.csv *.json);;All files (*)</source>
        <translation></translation>
    </message>
    <message>
        <source>Cannot open evaluation results</source>
        <translation></translation>
    </message>
    <message>
        <source>Analyses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Analysis Results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation or analysis tables (*.csv);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open analysis results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was loaded from %1; the charts keep what they showed.

%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Bench Results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>once bench results (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open bench results</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::ClipExporter</name>
    <message>
        <source>Export Overlaid &amp;Clip…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the video with the codeword groups drawn on every frame, as MP4 or GIF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MP4 video (*.mp4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GIF animation (*.gif)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Overlaid Clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting the overlaid clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overlaid clip written to %1: %2 frames, %3, %4 × %5 at %6 fps.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::CodebookExplorer</name>
    <message>
        <source>Codeword ids, e.g. 7 or 3, 10-20</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only these codewords: ids and ranges separated by commas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sort by id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sort by corpus usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sort by usage in this video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus usage: the share of the training corpus&apos;s tokens nearest to the codeword. Usage in this video: its patches assigned to the codeword.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Grid…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the tiles shown as a PNG picture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locate Corpus…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder that holds the corpus videos the codebook was trained on, to show their patches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the codebook&apos;s exemplars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cutting exemplar patches from the corpus videos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a codebook (or load the demo) to see its codewords.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n codeword(s)</source>
        <translation>
            <numerusform>%n codeword</numerusform>
            <numerusform>%n codewords</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 held in memory (not from a file). No exemplars: tiles show each codeword&apos;s colour.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. Reading the codebook&apos;s exemplars…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. The codebook&apos;s exemplar section is damaged and was ignored: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. No exemplars: codebook trained before provenance — it records neither corpus usage nor exemplar patches, so the tiles show each codeword&apos;s colour. Train it again (once train fit) to see them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with their corpus usage. No exemplars: the Stage-A cache this codebook was fitted on was sketched before provenance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with their corpus usage and up to %2 exemplar patches each, from the thumbnails stored in the codebook.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with their corpus usage. Cutting up to %2 exemplar patches each from the corpus videos in %3…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with their corpus usage. The exemplar patches are not stored in this codebook and its corpus videos were not found (recorded folder: %2); Locate Corpus… points to the folder that holds them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with their corpus usage and exemplar patches cut from the corpus videos in %2 (%3 of %4 videos read).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with their corpus usage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a video to see each codeword&apos;s usage in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choosing a codeword highlights its patches with the ONCE method only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The search is not a list of codeword ids (e.g. 7 or 3, 10-20).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a codeword to highlight its patches in every frame.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codeword %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>corpus: %1 tokens (%2 %) from %3 representatives in %n video(s)</source>
        <translation>
            <numerusform>corpus: %1 tokens (%2 %) from %3 representatives in %n video</numerusform>
            <numerusform>corpus: %1 tokens (%2 %) from %3 representatives in %n videos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>this video: %n patch(es)</source>
        <translation>
            <numerusform>this video: %n patch</numerusform>
            <numerusform>this video: %n patches</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 at %2 s (row %3, column %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 frame %2 (row %3, column %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exemplars: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>codebook in memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 of %n codeword(s) · %3</source>
        <translation>
            <numerusform>%1 · %2 of %n codeword · %3</numerusform>
            <numerusform>%1 · %2 of %n codewords · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Codebook Grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locate the Corpus Folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::CodebookProjector</name>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codeword to find</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find codeword:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this video&apos;s &amp;tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The codewords of highest cosine to the chosen one; double-click to choose one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most similar codewords:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a codebook to see its map.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No codebook.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Projecting the codebook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 codewords, %2 tokens of this video; the two axes hold %3 % of the codewords&apos; variance.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding similar codewords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>codeword %1 · cosine %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::CodewordTileDelegate</name>
    <message numerus="yes">
        <source>%n in video</source>
        <translation>
            <numerusform>%n in video</numerusform>
            <numerusform>%n in video</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>once::studio::CompressionController</name>
    <message>
        <source>Compression failed on %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Compressing with %1 at B = %2 on %3</source>
        <translation></translation>
    </message>
    <message>
        <source>Compressing on this machine instead.</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 compresses a token grid of %2 tokens, not the %3 of the video on screen (another encoder, sampling or pooling here). %4</source>
        <translation></translation>
    </message>
    <message>
        <source>Measuring the budget sweep of %1 on %2</source>
        <translation></translation>
    </message>
    <message>
        <source>Budget sweep failed on %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Budget sweep failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown compression method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a compression method. Known methods: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot prepare %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preparing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compression failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compressing with %1 at B = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measuring the budget sweep of %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::ConnectServerDialog</name>
    <message>
        <source>Connect to Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address `once serve` prints when it starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key in the server&apos;s --api-key-file (empty when it has none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remember the key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key will be stored in plain text in %1. Leave this unticked to keep it in memory for this session only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server &amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected to %1 (model %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the server&apos;s URL, such as http://gpu-host:8080.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::FrameOverlayView</name>
    <message>
        <source>Frame with codeword groups</source>
        <translation></translation>
    </message>
    <message>
        <source>Open a video or load the demo (File ▸ Load Demo) to see how ONCE groups its tokens.</source>
        <translation></translation>
    </message>
    <message>
        <source>Frame %1 of %2 · %3 s</source>
        <translation></translation>
    </message>
    <message>
        <source>no codebook: open one to see the groups</source>
        <translation></translation>
    </message>
    <message>
        <source>Frame %1, patch (%2, %3)</source>
        <translation></translation>
    </message>
    <message>
        <source>Dropped: its nearest codeword %1 is not selected</source>
        <translation></translation>
    </message>
    <message>
        <source>Cosine residual %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Dropped: in no output token</source>
        <translation></translation>
    </message>
    <message>
        <source>zoom %1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>group #%1 (codeword %2): %n patch(es) in this frame</source>
        <translation>
            <numerusform>group #%1 (codeword %2): %n patch in this frame</numerusform>
            <numerusform>group #%1 (codeword %2): %n patches in this frame</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>group #%1: %n patch(es) in this frame</source>
        <translation>
            <numerusform>group #%1: %n patch in this frame</numerusform>
            <numerusform>group #%1: %n patches in this frame</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Group rank %1 · codeword %2 · %n token(s)</source>
        <translation>
            <numerusform>Group rank %1 · codeword %2 · %n token</numerusform>
            <numerusform>Group rank %1 · codeword %2 · %n tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Select This Group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;lear Selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fit Frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Frame Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Frame Image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;All Frames as a Grid…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the S&amp;trip…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Frames as an Image &amp;Sequence…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;JPEG image (*.jpg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Frame Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export All Frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Strip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Frames as an Image Sequence (choose an empty folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing overlay frames…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frames exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s) written to %1 as overlay_0001.png, …. To make a video of them:
%2</source>
        <translation>
            <numerusform>%n frame written to %1 as overlay_0001.png. To make a video of it:
%2</numerusform>
            <numerusform>%n frames written to %1 as overlay_0001.png, …. To make a video of them:
%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>codeword %1: %n assigned patch(es) in this frame</source>
        <translation>
            <numerusform>codeword %1: %n assigned patch in this frame</numerusform>
            <numerusform>codeword %1: %n assigned patches in this frame</numerusform>
        </translation>
    </message>
    <message>
        <source>codeword %1: its patches show with the ONCE method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Codeword %1 in the &amp;Codebook View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Codeword in the &amp;Codebook View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Inspect This Patch</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::FrameStrip</name>
    <message>
        <source>Sampled frames</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>once::studio::MainWindow</name>
    <message>
        <source>Ready. File ▸ Load Demo shows everything at once.</source>
        <translation></translation>
    </message>
    <message>
        <source>Opened %1: %2 frames × %3 patches × %4 dims (%5)</source>
        <translation></translation>
    </message>
    <message>
        <source>Codebook %1: K = %2, D = %3</source>
        <translation></translation>
    </message>
    <message>
        <source>Model folder %1 (%2)</source>
        <translation></translation>
    </message>
    <message>
        <source>Assigned %1 tokens to their nearest codewords in %2 ms (%3)</source>
        <translation></translation>
    </message>
    <message>
        <source>Training failed</source>
        <translation></translation>
    </message>
    <message>
        <source>Open Video</source>
        <translation></translation>
    </message>
    <message>
        <source>Open Feature File</source>
        <translation></translation>
    </message>
    <message>
        <source>Feature files (*.safetensors);;All files (*)</source>
        <translation></translation>
    </message>
    <message>
        <source>Open Codebook</source>
        <translation></translation>
    </message>
    <message>
        <source>Codebooks (*.safetensors *.npy *.pt *.pth *.bin);;All files (*)</source>
        <translation></translation>
    </message>
    <message>
        <source>Open Model Folder</source>
        <translation></translation>
    </message>
    <message>
        <source>The new language applies when ONCE Studio restarts.</source>
        <translation></translation>
    </message>
    <message>
        <source>About ONCE Studio</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;h3&gt;ONCE Studio %1&lt;/h3&gt;&lt;p&gt;Video-token compression with a global codebook: every visual token is assigned to its nearest codeword, the B most used codewords are kept, tokens are reassigned among them and each group is mean-pooled.&lt;/p&gt;&lt;p&gt;See what compression does to a video, ask questions at a chosen budget, and train codebooks for your own backbone.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>Videos (%1);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages from the ONCE engine are in English, exactly as the command line prints them: they name the file, the field, what was expected and what was found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget sweep cancelled: the chart keeps the budgets measured before the cancel, or what it showed before when none was.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::OverlayControls</name>
    <message>
        <source>Overlay opacity</source>
        <translation></translation>
    </message>
    <message>
        <source>Group colour</source>
        <translation></translation>
    </message>
    <message>
        <source>Group mean colour</source>
        <translation></translation>
    </message>
    <message>
        <source>Overlay colours</source>
        <translation></translation>
    </message>
    <message>
        <source>O&amp;utlines</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Opacity:</source>
        <translation></translation>
    </message>
    <message>
        <source>Residual heat-map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual colour scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a patch to highlight its group in all frames and inspect it; hatched patches were dropped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual 1 − cos(token, its codeword): 0 … %1 (the largest in this result)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::PatchInspector</name>
    <message>
        <source>Nearest codewords listed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Codeword</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In this result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a codeword to highlight its patches in every frame.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group codeword:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine to its output token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Nearest codewords:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a patch in the frame to inspect it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No compression on screen yet: the patch is inspected when it arrives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The features of this video are not on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspecting a patch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame %1 · row %2, column %3 · token %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2, pooled from a group of %n token(s)</source>
        <translation>
            <numerusform>%1 of %2, pooled from a group of %n token</numerusform>
            <numerusform>%1 of %2, pooled from a group of %n tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>none: the token was dropped and feeds no output token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: this method groups tokens without codewords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (its nearest codeword k̂ = %1 was not selected)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, its nearest codeword k̂ (cosine %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, rank %2 of its codewords (cosine %3): reassigned, its nearest k̂ = %4 was not among the selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (this method has no codebook)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (1 − cos to its codeword)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>selected</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::ProjectionChart</name>
    <message>
        <source>Codebook projector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this video&apos;s tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>codewords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>selected by this result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens with k̂ = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>most similar codewords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>codeword %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inspected patch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC 1 (%1 % of variance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC 2 (%1 % of variance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCA of the %1 unit codewords; tokens projected on the same axes as directions (cosine). Click a codeword to choose it; drag to pan, wheel to zoom.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::QuestionPanel</name>
    <message>
        <source>Ask about the video, e.g. “What happens after the door opens?”</source>
        <translation></translation>
    </message>
    <message>
        <source>Question</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Ask</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation></translation>
    </message>
    <message>
        <source>Compare with &amp;Dense</source>
        <translation></translation>
    </message>
    <message>
        <source>Also answer from all visual tokens, as the reference</source>
        <translation></translation>
    </message>
    <message>
        <source>max </source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;b&gt;Dense&lt;/b&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>Dense</source>
        <translation></translation>
    </message>
    <message>
        <source>The question could not be answered: %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Answering</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;b&gt;Dense&lt;/b&gt;: not asked</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, B = %2</source>
        <translation></translation>
    </message>
    <message>
        <source>Open a Matching &amp;Codebook…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A codebook trained on features of this model&apos;s encoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Re-encode the Video with the Model&apos;s Encoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The overlay, the charts and the Trainer then use the model&apos;s features; a codebook for them is still needed for the compressed answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No %1 answer: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 answer failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> token(s)</source>
        <translation>
            <numerusform> token</numerusform>
            <numerusform> tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>Copy Answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the question and both answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Answers…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the question, both answers and the statistics as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy Table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the statistics as tab-separated text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Table…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the statistics as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Statistics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No codebook is loaded: only the Dense answer is available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: no codebook</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dense&lt;/b&gt;, %n visual token(s)</source>
        <translation>
            <numerusform>&lt;b&gt;Dense&lt;/b&gt;, %n visual token</numerusform>
            <numerusform>&lt;b&gt;Dense&lt;/b&gt;, %n visual tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;, B = %2, %n visual token(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;, B = %2, %n visual token</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;, B = %2, %n visual tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>Question: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>statistic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Dense&lt;/b&gt; (from the saved session)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Compressed&lt;/b&gt; (from the saved session)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The video, codebook and answers stay; ask again, reconnect (File ▸ Connect to Server…) or disconnect to answer on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions go to %1 (remote): the server answers with its model and codebook.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Times measured on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Times measured on %1 (remote).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s kept groups are for another token grid than the video here (open the server&apos;s model folder here to see them on the frames).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::RecentFilesMenu</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>once::studio::RemoteConnection</name>
    <message>
        <source>The connection check was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::ResidualChart</name>
    <message>
        <source>Cosine residual distribution</source>
        <translation></translation>
    </message>
    <message>
        <source>This video, nearest of all K codewords</source>
        <translation></translation>
    </message>
    <message>
        <source>This video, after reassignment at B = %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Cosine residual 1 − cos(x, c)</source>
        <translation></translation>
    </message>
    <message>
        <source>Density</source>
        <translation></translation>
    </message>
    <message>
        <source>No assignment yet: open a video and a codebook.</source>
        <translation></translation>
    </message>
    <message>
        <source>This video: %1.</source>
        <translation></translation>
    </message>
    <message>
        <source>The codebook file records no corpus residuals.</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 corpus</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::SessionAutosave</name>
    <message>
        <source>The autosave lock %1 could not be taken.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::SessionBinder</name>
    <message>
        <source>computing the %1 groups…</source>
        <translation></translation>
    </message>
    <message>
        <source>no %1 groups: the computation was cancelled or failed (move the budget to try again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 encoder (from a feature file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 encoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; the model folder&apos;s encoder is %2 (not re-encoded)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::SessionFileController</name>
    <message>
        <source>Open Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONCE sessions (*%1);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session was opened without some of its parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not restore everything; the rest is open.

%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The autosave %1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the Last Session?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONCE Studio did not close normally last time. Restore what was open then (%1), with its method, budget and last question?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restoring the session of the last run from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-encode the Video?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The video&apos;s features come from the %1 encoder; the model folder&apos;s encoder is %2. Re-encode the video with it, so the model, its codebooks and the charts see the same features?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Re-encode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Not Now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The video keeps the features of the %1 encoder.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation></translation>
    </message>
    <message>
        <source>CUDA GPU</source>
        <translation></translation>
    </message>
    <message>
        <source>Automatic (GPU when present)</source>
        <translation></translation>
    </message>
    <message>
        <source>No CUDA device or no CUDA build of LibTorch</source>
        <translation></translation>
    </message>
    <message>
        <source>float32</source>
        <translation></translation>
    </message>
    <message>
        <source>float16</source>
        <translation></translation>
    </message>
    <message>
        <source>bfloat16</source>
        <translation></translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation></translation>
    </message>
    <message>
        <source>uniform:N (N evenly spaced frames), fps:F or fps:F:MIN:MAX, with an optional window @START-END in seconds</source>
        <translation></translation>
    </message>
    <message>
        <source>All patches (27×27, the paper)</source>
        <translation></translation>
    </message>
    <message>
        <source>2×2 pooled (14×14, reference code default)</source>
        <translation></translation>
    </message>
    <message>
        <source>System language</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Backbone:</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Device:</source>
        <translation></translation>
    </message>
    <message>
        <source>D&amp;ata type:</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Threads:</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Frame sampling:</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Patch grid:</source>
        <translation></translation>
    </message>
    <message>
        <source>The %1 vision tower merges patches itself; this setting applies to backbones that pool the patch grid</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation></translation>
    </message>
    <message>
        <source>A new language applies when ONCE Studio restarts.</source>
        <translation></translation>
    </message>
    <message>
        <source>This frame sampling rule is not valid, so the settings were not applied. Examples: uniform:32, fps:1, fps:2:8:64@0-30.
%1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::SoundControls</name>
    <message>
        <source>Mute the sound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unmute the sound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sound at %1× (the sound plays at 1× only)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::StudioSession</name>
    <message>
        <source>The codebook was unloaded because it does not fit the new video: %1</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>once::studio::TaskRadarChart</name>
    <message>
        <source>Per-task accuracy</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Open Evaluation Results…</source>
        <translation></translation>
    </message>
    <message>
        <source>No evaluation results loaded. Open a CSV (task,method,accuracy) or the evaluation harness&apos;s JSON to compare methods task by task.</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 tasks, %2 methods, from %3.</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>once::studio::TaskStatus</name>
    <message>
        <source>Cancel</source>
        <translation></translation>
    </message>
    <message>
        <source>Stop the running work</source>
        <translation></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>once::studio::TrainerOptionsForm</name>
    <message>
        <source>Stage A: corpus sketch</source>
        <translation></translation>
    </message>
    <message>
        <source>no cap</source>
        <translation></translation>
    </message>
    <message>
        <source>Record unreadable videos as failed and go on</source>
        <translation></translation>
    </message>
    <message>
        <source>Timeline bins L:</source>
        <translation></translation>
    </message>
    <message>
        <source>Tokens per representative R:</source>
        <translation></translation>
    </message>
    <message>
        <source>Smallest sketch m_min:</source>
        <translation></translation>
    </message>
    <message>
        <source>Largest sketch m_max:</source>
        <translation></translation>
    </message>
    <message>
        <source>Lloyd rounds per bin:</source>
        <translation></translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation></translation>
    </message>
    <message>
        <source>Representative cap:</source>
        <translation></translation>
    </message>
    <message>
        <source>Rows per shard:</source>
        <translation></translation>
    </message>
    <message>
        <source>Stage B: codebook fit</source>
        <translation></translation>
    </message>
    <message>
        <source>off</source>
        <translation></translation>
    </message>
    <message>
        <source>Codewords K:</source>
        <translation></translation>
    </message>
    <message>
        <source>Method:</source>
        <translation></translation>
    </message>
    <message>
        <source>Representative weights:</source>
        <translation></translation>
    </message>
    <message>
        <source>Long-tail exponent α:</source>
        <translation></translation>
    </message>
    <message>
        <source>Initialisation:</source>
        <translation></translation>
    </message>
    <message>
        <source>Initialisation candidates:</source>
        <translation></translation>
    </message>
    <message>
        <source>Initial Lloyd refinements:</source>
        <translation></translation>
    </message>
    <message>
        <source>Mini-batch:</source>
        <translation></translation>
    </message>
    <message>
        <source>Sinkhorn ε:</source>
        <translation></translation>
    </message>
    <message>
        <source>Sinkhorn normalisation steps:</source>
        <translation></translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation></translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation></translation>
    </message>
    <message>
        <source>Gradient-norm clip:</source>
        <translation></translation>
    </message>
    <message>
        <source>Commitment weight:</source>
        <translation></translation>
    </message>
    <message>
        <source>Code-usage weight:</source>
        <translation></translation>
    </message>
    <message>
        <source>Temperature start:</source>
        <translation></translation>
    </message>
    <message>
        <source>Temperature floor:</source>
        <translation></translation>
    </message>
    <message>
        <source>Temperature decay:</source>
        <translation></translation>
    </message>
    <message>
        <source>Epochs at most:</source>
        <translation></translation>
    </message>
    <message>
        <source>Patience:</source>
        <translation></translation>
    </message>
    <message>
        <source>Hard-Lloyd rounds:</source>
        <translation></translation>
    </message>
    <message>
        <source>Stored dtype:</source>
        <translation></translation>
    </message>
    <message>
        <source>Restore &amp;Defaults</source>
        <translation></translation>
    </message>
    <message>
        <source>The paper&apos;s settings (LLaVA-OneVision column of its configuration table)</source>
        <translation></translation>
    </message>
    <message>
        <source>AdamW β1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AdamW β2:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AdamW ε:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::TrainerPanel</name>
    <message>
        <source>corpus.jsonl or a folder of videos</source>
        <translation></translation>
    </message>
    <message>
        <source>folder for the Stage-A cache</source>
        <translation></translation>
    </message>
    <message>
        <source>codebook.safetensors</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Corpus:</source>
        <translation></translation>
    </message>
    <message>
        <source>Corpus manifest (*.jsonl);;All files (*)</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Backbone:</source>
        <translation></translation>
    </message>
    <message>
        <source>Stage-A c&amp;ache:</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Output codebook:</source>
        <translation></translation>
    </message>
    <message>
        <source>Codebook (*.safetensors)</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation></translation>
    </message>
    <message>
        <source>Open in &amp;Main View</source>
        <translation></translation>
    </message>
    <message>
        <source>Load the finished codebook into the overlay and the charts</source>
        <translation></translation>
    </message>
    <message>
        <source>Stage A:</source>
        <translation></translation>
    </message>
    <message>
        <source>Stage B:</source>
        <translation></translation>
    </message>
    <message>
        <source>Cancelled. Train again with the same cache folder to resume.</source>
        <translation></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation></translation>
    </message>
    <message>
        <source>…</source>
        <translation></translation>
    </message>
    <message>
        <source>Browse</source>
        <translation></translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation></translation>
    </message>
    <message>
        <source>Corpus Folder</source>
        <translation></translation>
    </message>
    <message>
        <source>Choose Folder</source>
        <translation></translation>
    </message>
    <message>
        <source>Save Codebook As</source>
        <translation></translation>
    </message>
    <message>
        <source>Choose File</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation></translation>
    </message>
    <message>
        <source>Loss</source>
        <translation></translation>
    </message>
    <message>
        <source>Code-usage term</source>
        <translation></translation>
    </message>
    <message>
        <source>Stage-B step</source>
        <translation></translation>
    </message>
    <message>
        <source>Code usage</source>
        <translation></translation>
    </message>
    <message>
        <source>Resuming from the Stage-A cache…</source>
        <translation></translation>
    </message>
    <message>
        <source>Training…</source>
        <translation></translation>
    </message>
    <message>
        <source>Training a codebook</source>
        <translation></translation>
    </message>
    <message>
        <source>Finished: %1 (%2 codewords × %3, epoch %4 selected; %5 of %6 videos sketched, %7 failed).</source>
        <translation></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %p%</source>
        <extracomment>A progress bar after its run stopped, e.g. &quot;Stage A: cancelled at 56%&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean Stage-B loss per epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selection criterion (weighted cosine error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage-B epoch (0: initialiser)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss (not recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Criterion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage-B history recorded in %1; epoch %2 (dotted) was selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage-B history recorded in %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::UsageDecileChart</name>
    <message>
        <source>Code usage by equal-count deciles</source>
        <translation></translation>
    </message>
    <message>
        <source>This video</source>
        <translation></translation>
    </message>
    <message>
        <source>This video, leading fifth</source>
        <translation></translation>
    </message>
    <message>
        <source>Codebook corpus</source>
        <translation></translation>
    </message>
    <message>
        <source>Uniform (10 %)</source>
        <translation></translation>
    </message>
    <message>
        <source>Codeword decile (most used first)</source>
        <translation></translation>
    </message>
    <message>
        <source>Share of assignments (%)</source>
        <translation></translation>
    </message>
    <message>
        <source>No assignment yet: open a video and a codebook.</source>
        <translation></translation>
    </message>
    <message>
        <source>The codebook file records no corpus usage; only this video is shown.</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>once::studio::VideoLoader</name>
    <message>
        <source>Opening %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open feature file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open codebook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking model folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a video, feature file, codebook or model folder (unknown file type &quot;%2&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot load the demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo video (demo.mp4) was not found. Looked in $ONCE_DEMO_DIR, &lt;install prefix&gt;/share/once-studio/demo and the source tree%1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo codebook (demo_codebook.safetensors) is not installed: using %1 codewords sampled from the demo video&apos;s own features.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Videos opened from now on are encoded by the model folder&apos;s %1 encoder, sampled %2 (Preferences ▸ Backbone).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::VideoPlayerPanel</name>
    <message>
        <source>Play or pause (Space)</source>
        <translation></translation>
    </message>
    <message>
        <source>Play</source>
        <translation></translation>
    </message>
    <message>
        <source>Playback position</source>
        <translation></translation>
    </message>
    <message>
        <source>No video to play.</source>
        <translation></translation>
    </message>
    <message>
        <source>Playback is not available: %1</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 cannot be played here (a frame folder or a feature file).</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous frame of the video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next frame of the video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start again from the beginning at the end of the clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw the codeword groups of the sampled frame shown over the video</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>once::studio::methods</name>
    <message>
        <source>Spatial pooling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame drop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at most B tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every budget from %1 up gives the same output.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budgets %1–%2 change the output; below %1 it would keep no token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budgets %1–%2 change the output.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2. %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DyCoke temporal token merging: frame i whole, its neighbours keep their least similar tokens, keep ratio from the budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FastVID: DySeg segments, salient tokens by attention (frame-mean cosine without it), DPC-kNN anchors merged per segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uniform frame drop: whole frames at linspace positions, floor(budget/P) of them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uniform spatial average pooling per frame, stride chosen so that T x ceil(H/s) x ceil(W/s) &lt;= budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ToMe bipartite soft matching on the video&apos;s tokens, r merges per round (0: as many as allowed) until the budget is met</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VisionZip per frame: dominant tokens by attention (frame-mean cosine without it) plus contextual tokens merged into strided targets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VQToken adaptive k-means: cosine k-means++ per video, K by the elbow rule over [k_min, k_max] capped by the budget, cluster means</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONCE: nearest codewords of a global codebook, B most used kept, tokens reassigned and mean-pooled (the paper&apos;s rule)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ForestPrune: per-frame graph pruning, then history trees across frames; the roots and shallowest nodes are kept, excess roots merged greedily</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
