<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AnalysisResults</name>
    <message>
        <source>Accuracy vs budget</source>
        <translation>准确率与预算</translation>
    </message>
    <message>
        <source>Token budget B</source>
        <translation>令牌预算 B</translation>
    </message>
    <message>
        <source>Accuracy (%), 95% bootstrap CI</source>
        <translation>准确率（%），95% 自助法置信区间</translation>
    </message>
    <message>
        <source>Overall accuracy; the %1 per-task rows are on the per-task radar.</source>
        <translation>总体准确率；%1 行各任务结果见各任务雷达图。</translation>
    </message>
    <message>
        <source>End-to-end time vs visual tokens</source>
        <translation>端到端时间与视觉令牌数</translation>
    </message>
    <message>
        <source>Visual tokens per question (mean)</source>
        <translation>每个问题的视觉令牌数（平均）</translation>
    </message>
    <message>
        <source>End-to-end time per question (s)</source>
        <translation>每个问题的端到端时间（秒）</translation>
    </message>
    <message>
        <source>Break-even count N* vs budget</source>
        <translation>盈亏平衡数 N* 与预算</translation>
    </message>
    <message>
        <source>N* (videos that repay the offline cost)</source>
        <translation>N*（抵消离线成本所需的视频数）</translation>
    </message>
    <message>
        <source>%1 row(s) with no per-video saving (N* infinite) are not drawn.</source>
        <translation>%1 行没有单视频节省（N* 为无穷大），未绘制。</translation>
    </message>
    <message>
        <source>Support origin: donor − current R95</source>
        <translation>支撑来源：供体 − 当前 R95</translation>
    </message>
    <message>
        <source>Δ R95, simultaneous band</source>
        <translation>Δ R95，同时置信带</translation>
    </message>
    <message>
        <source>donor − current R95</source>
        <translation>供体 − 当前 R95</translation>
    </message>
    <message>
        <source>no difference</source>
        <translation>无差异</translation>
    </message>
    <message>
        <source>Above zero: a support chosen on another video leaves larger residuals than the video&apos;s own.</source>
        <translation>高于零：在另一视频上选出的支撑比视频自身的支撑留下更大的残差。</translation>
    </message>
    <message>
        <source>Stress diagnostic: random − learned residual</source>
        <translation>压力诊断：随机 − 学习码本残差</translation>
    </message>
    <message>
        <source>Codebook comparison: other − reference residual</source>
        <translation>码本比较：其他 − 参考残差</translation>
    </message>
    <message>
        <source>Residual statistic</source>
        <translation>残差统计量</translation>
    </message>
    <message>
        <source>Difference, 95% bootstrap CI</source>
        <translation>差值，95% 自助法置信区间</translation>
    </message>
    <message>
        <source>random − learned</source>
        <translation>随机 − 学习</translation>
    </message>
    <message>
        <source>other − reference</source>
        <translation>其他 − 参考</translation>
    </message>
    <message>
        <source>Above zero: the learned codebook leaves smaller residuals than random exemplars of the same size.</source>
        <translation>高于零：学习得到的码本比同样大小的随机样本码本留下更小的残差。</translation>
    </message>
    <message>
        <source>Above zero: the other codebook leaves larger residuals.</source>
        <translation>高于零：另一个码本留下更大的残差。</translation>
    </message>
</context>
<context>
    <name>AnswerStatistics</name>
    <message>
        <source>Compute dtype</source>
        <translation>计算精度</translation>
    </message>
    <message>
        <source>The precision the vision encoder and the language model compute in (%1)</source>
        <translation>视觉编码器和语言模型计算所用的精度（%1）</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Reading and sampling the video&apos;s frames</source>
        <translation>读取并采样视频帧</translation>
    </message>
    <message>
        <source>The vision encoder and projector turning frames into visual tokens</source>
        <translation>视觉编码器和投影层把帧变成视觉令牌</translation>
    </message>
    <message>
        <source>Reducing the visual tokens to the budget with the selected method (Dense keeps them all and compresses nothing)</source>
        <translation>用所选方法把视觉令牌压缩到预算（稠密保留全部令牌，不做压缩）</translation>
    </message>
    <message>
        <source>The language model reading the whole input (prompt and visual tokens) once</source>
        <translation>语言模型一次读入全部输入（提示词和视觉令牌）</translation>
    </message>
    <message>
        <source>Producing the answer token by token</source>
        <translation>逐个令牌生成回答</translation>
    </message>
    <message>
        <source>Loading the features from a file</source>
        <translation>从文件加载特征</translation>
    </message>
    <message>
        <source>Time of the pipeline stage “%1”</source>
        <translation>流水线阶段“%1”的用时</translation>
    </message>
    <message>
        <source>%1 time</source>
        <translation>%1 用时</translation>
    </message>
    <message>
        <source>%1 ms (cached)</source>
        <translation>%1 毫秒（缓存）</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>总用时</translation>
    </message>
    <message>
        <source>The stages run for this question; stages marked cached were paid by an earlier question and are not counted</source>
        <translation>本次提问实际运行的阶段；标为缓存的阶段已由之前的提问完成，不计入</translation>
    </message>
    <message>
        <source>Visual tokens (content + layout)</source>
        <translation>视觉令牌（内容 + 布局）</translation>
    </message>
    <message>
        <source>Visual tokens entering the language model: the compressed content tokens plus the backbone&apos;s layout tokens (LLaVA&apos;s image_newline)</source>
        <translation>进入语言模型的视觉令牌：压缩后的内容令牌加上骨干网络的布局令牌（LLaVA 的 image_newline）</translation>
    </message>
    <message>
        <source>Source tokens N</source>
        <translation>源令牌数 N</translation>
    </message>
    <message>
        <source>Visual tokens of the video before compression</source>
        <translation>压缩前视频的视觉令牌数</translation>
    </message>
    <message>
        <source>LLM input length</source>
        <translation>LLM 输入长度</translation>
    </message>
    <message>
        <source>Every token the language model reads: prompt, question and visual tokens</source>
        <translation>语言模型读入的全部令牌：提示词、问题和视觉令牌</translation>
    </message>
    <message>
        <source>Generated tokens</source>
        <translation>生成的令牌数</translation>
    </message>
    <message>
        <source>Tokens of the answer</source>
        <translation>回答的令牌数</translation>
    </message>
    <message>
        <source>Prefill FLOPs</source>
        <translation>预填充 FLOPs</translation>
    </message>
    <message>
        <source>Floating-point operations of the prefill over the LLM input length (2 per multiply-add, all layers)</source>
        <translation>预填充在整个 LLM 输入长度上的浮点运算量（每次乘加计 2 次，所有层）</translation>
    </message>
</context>
<context>
    <name>HelpDialogs</name>
    <message>
        <source>The user guide is not part of this build.</source>
        <translation>此版本不包含用户指南。</translation>
    </message>
    <message>
        <source>ONCE Studio User Guide</source>
        <translation>ONCE Studio 用户指南</translation>
    </message>
    <message>
        <source>Previous / next frame (frame view)</source>
        <translation>上一帧 / 下一帧（帧视图）</translation>
    </message>
    <message>
        <source>Left / Right</source>
        <translation>左 / 右</translation>
    </message>
    <message>
        <source>First / last frame (frame view)</source>
        <translation>第一帧 / 最后一帧（帧视图）</translation>
    </message>
    <message>
        <source>Home / End</source>
        <translation>Home / End</translation>
    </message>
    <message>
        <source>Clear the group selection (frame view)</source>
        <translation>清除分组选择（帧视图）</translation>
    </message>
    <message>
        <source>Escape</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Zoom in / out / fit (frame view; or the wheel)</source>
        <translation>放大 / 缩小 / 适应窗口（帧视图；或用滚轮）</translation>
    </message>
    <message>
        <source>+ / − / 0</source>
        <translation>+ / − / 0</translation>
    </message>
    <message>
        <source>Play or pause (Playback)</source>
        <translation>播放或暂停（播放）</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>空格</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context>
<context>
    <name>MainDocks</name>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Playback</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>提问</translation>
    </message>
    <message>
        <source>Trainer</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Codebook</source>
        <translation>码本</translation>
    </message>
    <message>
        <source>Patch</source>
        <translation>图块</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影</translation>
    </message>
    <message>
        <source>A/B</source>
        <translation>A/B</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批处理</translation>
    </message>
</context>
<context>
    <name>MainMenus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Video…</source>
        <translation>打开视频(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Feature File…</source>
        <translation>打开特征文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Open &amp;Codebook…</source>
        <translation>打开码本(&amp;C)…</translation>
    </message>
    <message>
        <source>Open &amp;Model Folder…</source>
        <translation>打开模型文件夹(&amp;M)…</translation>
    </message>
    <message>
        <source>Connect to &amp;Server…</source>
        <translation>连接到服务器(&amp;S)…</translation>
    </message>
    <message>
        <source>Disconnect from Se&amp;rver</source>
        <translation>断开服务器连接(&amp;R)</translation>
    </message>
    <message>
        <source>Connected to %1: questions are answered there.</source>
        <translation>已连接到 %1：问题将由该服务器回答。</translation>
    </message>
    <message>
        <source>Questions are answered on this machine.</source>
        <translation>问题将在本机回答。</translation>
    </message>
    <message>
        <source>Open &amp;Evaluation Results…</source>
        <translation>打开评测结果(&amp;E)…</translation>
    </message>
    <message>
        <source>Open &amp;Analysis Results…</source>
        <translation>打开分析结果(&amp;A)…</translation>
    </message>
    <message>
        <source>Open &amp;Session…</source>
        <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
        <source>Sa&amp;ve Session…</source>
        <translation>保存会话(&amp;V)…</translation>
    </message>
    <message>
        <source>Load &amp;Demo</source>
        <translation>加载演示(&amp;D)</translation>
    </message>
    <message>
        <source>Export Chart &amp;Image…</source>
        <translation>导出图表图像(&amp;I)…</translation>
    </message>
    <message>
        <source>Export Chart &amp;Data…</source>
        <translation>导出图表数据(&amp;D)…</translation>
    </message>
    <message>
        <source>Export &amp;Overlay</source>
        <translation>导出叠加图(&amp;O)</translation>
    </message>
    <message>
        <source>Current &amp;Frame…</source>
        <translation>当前帧(&amp;F)…</translation>
    </message>
    <message>
        <source>All Frames as a &amp;Grid…</source>
        <translation>所有帧网格图(&amp;G)…</translation>
    </message>
    <message>
        <source>The &amp;Strip…</source>
        <translation>缩略图条(&amp;S)…</translation>
    </message>
    <message>
        <source>Every Frame as an Image &amp;Sequence (for a video)…</source>
        <translation>每一帧作为图像序列(&amp;S)（用于制作视频）…</translation>
    </message>
    <message>
        <source>&amp;Copy Current Frame</source>
        <translation>复制当前帧(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Next Frame</source>
        <translation>下一帧(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Frame</source>
        <translation>上一帧(&amp;P)</translation>
    </message>
    <message>
        <source>C&amp;lear Group Selection</source>
        <translation>清除分组选择(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Compression</source>
        <translation>压缩(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Double Budget</source>
        <translation>预算加倍(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Halve Budget</source>
        <translation>预算减半(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Measure Budget Sweep</source>
        <translation>测量预算扫描(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Cancel Running Work</source>
        <translation>取消正在运行的任务(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About ONCE Studio</source>
        <translation>关于 ONCE Studio(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>OverlayClipExport</name>
    <message>
        <source>%1 s · groups of frame %2</source>
        <translation>%1 秒 · 第 %2 帧的分组</translation>
    </message>
    <message>
        <source>Writing the overlaid clip</source>
        <translation>正在写入叠加视频片段</translation>
    </message>
</context>
<context>
    <name>OverlayExport</name>
    <message>
        <source>Frame %1 · %2 s</source>
        <translation>第 %1 帧 · %2 秒</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>there is nothing to export (open a video first)</source>
        <translation>没有可导出的内容（请先打开视频）</translation>
    </message>
    <message>
        <source>unknown image format “%1” (use .png, .jpg or .bmp)</source>
        <translation>未知的图像格式“%1”（请使用 .png、.jpg 或 .bmp）</translation>
    </message>
    <message>
        <source>There is nothing to export: open a video first.</source>
        <translation>没有可导出的内容：请先打开视频。</translation>
    </message>
    <message>
        <source>%1 frames are more than an image sequence takes (at most %2).</source>
        <translation>%1 帧超出了图像序列的上限（最多 %2 帧）。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>%1 already exists: choose an empty folder or another name, nothing was written.</source>
        <translation>%1 已存在：请选择空文件夹或其他名称，未写入任何文件。</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1: unsupported image format (use .png, .svg or .pdf)</source>
        <translation>%1：不支持的图像格式（请使用 .png、.svg 或 .pdf）</translation>
    </message>
    <message>
        <source>%1: the image could not be written</source>
        <translation>%1：无法写入图像</translation>
    </message>
    <message>
        <source>Token budget B</source>
        <translation>令牌预算 B</translation>
    </message>
    <message>
        <source>Speed-up over Dense (×)</source>
        <translation>相对稠密的加速比 (×)</translation>
    </message>
    <message>
        <source>Accuracy (%)</source>
        <translation>准确率 (%)</translation>
    </message>
    <message>
        <source>%1: end-to-end speed-up</source>
        <translation>%1：端到端加速比</translation>
    </message>
    <message>
        <source>%1: prefill speed-up</source>
        <translation>%1：预填充加速比</translation>
    </message>
    <message>
        <source>%1: accuracy</source>
        <translation>%1：准确率</translation>
    </message>
    <message>
        <source>Dense (%1 visual tokens, %2 ms end to end)</source>
        <translation>稠密（%1 个视觉令牌，端到端 %2 毫秒）</translation>
    </message>
    <message>
        <source>Dense: accuracy</source>
        <translation>稠密：准确率</translation>
    </message>
    <message>
        <source>Measured by once bench on %1 (%2), %3, sampling %4, %5 new tokens.</source>
        <translation>由 once bench 在 %1（%2）上测得，%3，采样 %4，生成 %5 个新令牌。</translation>
    </message>
    <message>
        <source>No accuracy in this table (once bench --accuracy RESULTS adds it).</source>
        <translation>此表没有准确率（once bench --accuracy RESULTS 可加入）。</translation>
    </message>
</context>
<context>
    <name>QtAudioSink</name>
    <message>
        <source>no audio output device</source>
        <translation>没有音频输出设备</translation>
    </message>
    <message>
        <source>the audio device %1 takes neither float nor 16-bit sound at %2 Hz</source>
        <translation>音频设备 %1 在 %2 Hz 下既不接受浮点也不接受 16 位声音</translation>
    </message>
    <message>
        <source>the audio device could not be opened</source>
        <translation>无法打开音频设备</translation>
    </message>
    <message>
        <source>the audio device stopped taking sound</source>
        <translation>音频设备不再接收声音</translation>
    </message>
    <message>
        <source>the audio device failed</source>
        <translation>音频设备出错</translation>
    </message>
</context>
<context>
    <name>VersionInfo</name>
    <message>
        <source>%1 (built with %2)</source>
        <translation>%1（编译时为 %2）</translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>runtime loaded, no CUDA device visible</source>
        <translation>运行库已加载，但没有可见的 CUDA 设备</translation>
    </message>
    <message>
        <source>available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>ONCE Studio: video-token compression with a global codebook</source>
        <translation>ONCE Studio：基于全局码本的视频令牌压缩</translation>
    </message>
    <message>
        <source>Load the embedded demo.</source>
        <translation>加载内置演示。</translation>
    </message>
    <message>
        <source>Load the demo, save the window to FILE and quit.</source>
        <translation>加载演示，将窗口截图保存到 FILE 后退出。</translation>
    </message>
    <message>
        <source>Interface language for this run (en, zh_CN).</source>
        <translation>本次运行的界面语言（en、zh_CN）。</translation>
    </message>
    <message>
        <source>Videos, feature files, codebooks or model folders.</source>
        <translation>视频、特征文件、码本或模型文件夹。</translation>
    </message>
    <message>
        <source>Reopen the session saved in FILE (.oncesession); --session FILE works too.</source>
        <translation>重新打开保存在 FILE 中的会话 (.oncesession)；--session FILE 同样可用。</translation>
    </message>
</context>
<context>
    <name>once::studio::AbAnswers</name>
    <message>
        <source>A question about the video, asked under A and under B</source>
        <translation>关于视频的问题，分别按 A 和 B 的设置提问</translation>
    </message>
    <message>
        <source>Question for both sides</source>
        <translation>两边共用的问题</translation>
    </message>
    <message>
        <source>max </source>
        <translation>最多 </translation>
    </message>
    <message>
        <source>Most tokens of each answer</source>
        <translation>每个回答的最多令牌数</translation>
    </message>
    <message>
        <source>Ask &amp;Both</source>
        <translation>两边都问(&amp;B)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Both answers come from %1 (remote), with its model and codebook.</source>
        <translation>两个回答都来自 %1（远程），使用其模型和码本。</translation>
    </message>
    <message>
        <source>Both answers come from %1 on this machine.</source>
        <translation>两个回答都由本机上的 %1 给出。</translation>
    </message>
    <message>
        <source>Answer the question under A&apos;s settings, then under B&apos;s</source>
        <translation>先按 A 的设置回答问题，再按 B 的设置回答</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>正在作答…</translation>
    </message>
    <message>
        <source>Answering under A and B</source>
        <translation>按 A 和 B 作答</translation>
    </message>
    <message numerus="yes">
        <source>%n output token(s)</source>
        <translation>
            <numerusform>%n 个输出令牌</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>once::studio::AbCompareView</name>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>&lt;b&gt;Difference&lt;/b&gt; (B compared with A)</source>
        <translation>&lt;b&gt;差异&lt;/b&gt;（B 相对于 A）</translation>
    </message>
    <message>
        <source>Method of side %1</source>
        <translation>%1 侧的方法</translation>
    </message>
    <message>
        <source>Budget of side %1</source>
        <translation>%1 侧的预算</translation>
    </message>
    <message>
        <source>&amp;Budget:</source>
        <translation>预算(&amp;B)：</translation>
    </message>
    <message>
        <source>%1 needs a codebook: open one (File ▸ Open Codebook…).</source>
        <translation>%1 需要码本：请打开一个（文件 ▸ 打开码本…）。</translation>
    </message>
    <message>
        <source>Comparing %1 and %2</source>
        <translation>正在比较 %1 和 %2</translation>
    </message>
    <message>
        <source>%1 at B = %2: %3 output tokens of %4 · compressed in %5 ms%6</source>
        <translation>%1，B = %2：%4 个令牌压缩为 %3 个输出令牌 · 压缩耗时 %5 毫秒%6</translation>
    </message>
    <message>
        <source> (prepared now in %1 ms)</source>
        <translation>（刚刚准备，耗时 %1 毫秒）</translation>
    </message>
    <message>
        <source>%1 % of the tokens grouped on both sides kept their group.</source>
        <translation>两侧都被分组的令牌中有 %1 % 保持了原分组。</translation>
    </message>
    <message>
        <source>moved: %1</source>
        <translation>移动：%1</translation>
    </message>
    <message>
        <source>dropped by A only: %1</source>
        <translation>仅被 A 丢弃：%1</translation>
    </message>
    <message>
        <source>dropped by B only: %1</source>
        <translation>仅被 B 丢弃：%1</translation>
    </message>
    <message>
        <source>by both: %1</source>
        <translation>两侧都丢弃：%1</translation>
    </message>
</context>
<context>
    <name>once::studio::AnalysisChart</name>
    <message>
        <source>Analyses</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>&amp;Open Analysis or Evaluation CSV…</source>
        <translation>打开分析或评测 CSV(&amp;O)…</translation>
    </message>
    <message>
        <source>The CSV written by once eval report --csv, once analyze stress, support-origin or break-even --csv</source>
        <translation>由 once eval report --csv、once analyze stress、support-origin 或 break-even --csv 写出的 CSV</translation>
    </message>
    <message>
        <source>Open the CSV of an evaluation (accuracy or efficiency) or of an analysis (stress, support origin, break-even) to chart it.</source>
        <translation>打开评测（准确率或效率）或分析（压力、支撑来源、盈亏平衡）的 CSV 以绘制图表。</translation>
    </message>
</context>
<context>
    <name>once::studio::AnswerTarget</name>
    <message>
        <source>Connected to %1: open a video to ask about it.</source>
        <translation>已连接到 %1：请打开一个视频再提问。</translation>
    </message>
    <message>
        <source>The server answers about a video file: open the video itself, not its feature file.</source>
        <translation>服务器针对视频文件作答：请打开视频本身，而不是它的特征文件。</translation>
    </message>
    <message>
        <source>Answering needs a model folder (File ▸ Open Model Folder…): a Hugging Face checkpoint as downloaded, such as %1.</source>
        <translation>回答问题需要模型文件夹（文件 ▸ 打开模型文件夹…）：即下载得到的 Hugging Face 检查点，例如 %1。</translation>
    </message>
    <message>
        <source>The demo encoder has no language model, so it cannot answer; the overlay, the budget slider and the charts work without one.</source>
        <translation>演示编码器没有语言模型，因此无法回答；叠加显示、预算滑块和图表无需模型即可使用。</translation>
    </message>
    <message>
        <source>The overlay, the budget slider and the charts work without one.</source>
        <translation>叠加显示、预算滑块和图表无需模型即可使用。</translation>
    </message>
    <message>
        <source>Open a video to ask about it.</source>
        <translation>请先打开一个视频再提问。</translation>
    </message>
</context>
<context>
    <name>once::studio::AudioPlayback</name>
    <message>
        <source>the clip has no sound track</source>
        <translation>该片段没有音轨</translation>
    </message>
    <message>
        <source>No sound: %1</source>
        <translation>无声音：%1</translation>
    </message>
</context>
<context>
    <name>once::studio::BatchPanel</name>
    <message>
        <source>A folder of videos</source>
        <translation>一个视频文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Dense (no compression)</source>
        <translation>Dense（不压缩）</translation>
    </message>
    <message>
        <source>&amp;Run Batch</source>
        <translation>运行批处理(&amp;R)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&amp;Export Report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Visual tokens</source>
        <translation>视觉令牌</translation>
    </message>
    <message>
        <source>Compression (ms)</source>
        <translation>压缩（毫秒）</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>首令牌时间（毫秒）</translation>
    </message>
    <message>
        <source>End to end (ms)</source>
        <translation>端到端（毫秒）</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>&amp;Videos:</source>
        <translation>视频(&amp;V)：</translation>
    </message>
    <message>
        <source>&amp;Methods:</source>
        <translation>方法(&amp;M)：</translation>
    </message>
    <message>
        <source>B&amp;udgets:</source>
        <translation>预算(&amp;U)：</translation>
    </message>
    <message>
        <source>Repetitions:</source>
        <translation>重复次数：</translation>
    </message>
    <message>
        <source>Warm-up:</source>
        <translation>预热：</translation>
    </message>
    <message>
        <source>New tokens:</source>
        <translation>新令牌数：</translation>
    </message>
    <message>
        <source>The batch failed: %1</source>
        <translation>批处理失败：%1</translation>
    </message>
    <message>
        <source>The batch was cancelled; nothing was measured.</source>
        <translation>批处理已取消；未测量任何内容。</translation>
    </message>
    <message>
        <source>Open a model folder first (File ▸ Open Model Folder…): the batch measures prefill and decoding with its language model.</source>
        <translation>请先打开模型文件夹（文件 ▸ 打开模型文件夹…）：批处理使用其语言模型测量预填充和解码。</translation>
    </message>
    <message>
        <source>Choose a folder that holds videos.</source>
        <translation>请选择一个包含视频的文件夹。</translation>
    </message>
    <message>
        <source>%1 needs a codebook file: open one (File ▸ Open Codebook…).</source>
        <translation>%1 需要码本文件：请打开一个（文件 ▸ 打开码本…）。</translation>
    </message>
    <message>
        <source>Choose at least one method.</source>
        <translation>请至少选择一种方法。</translation>
    </message>
    <message>
        <source>Budgets are positive whole numbers, e.g. &quot;16, 64, 256&quot;.</source>
        <translation>预算为正整数，例如 &quot;16, 64, 256&quot;。</translation>
    </message>
    <message numerus="yes">
        <source>%n video(s) found</source>
        <translation>
            <numerusform>找到 %n 个视频</numerusform>
        </translation>
    </message>
    <message>
        <source>Ready to run.</source>
        <translation>可以运行。</translation>
    </message>
    <message numerus="yes">
        <source>Running %n video(s)…</source>
        <translation>
            <numerusform>正在运行 %n 个视频…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Batch over %n video(s)</source>
        <translation>
            <numerusform>对 %n 个视频进行批处理</numerusform>
        </translation>
    </message>
    <message>
        <source>Dense</source>
        <translation>Dense</translation>
    </message>
    <message numerus="yes">
        <source>Measured %n video(s) on %1; the speed-up panel is in Charts ▸ Budget vs latency.</source>
        <translation>
            <numerusform>已在 %1 上测量 %n 个视频；加速比面板位于 图表 ▸ 预算与延迟。</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing measured yet.</source>
        <translation>尚未测量任何内容。</translation>
    </message>
    <message>
        <source>End-to-end speed-up over Dense</source>
        <translation>相对 Dense 的端到端加速比</translation>
    </message>
    <message>
        <source>Folder of Videos</source>
        <translation>视频文件夹</translation>
    </message>
    <message>
        <source>Export the Batch Report into a Folder</source>
        <translation>将批处理报告导出到文件夹</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>once::studio::BudgetLatencyChart</name>
    <message>
        <source>FLOPs count %1 layout and %2 prompt tokens besides the visual ones.</source>
        <translation>FLOPs 除视觉令牌外还计入 %1 个布局令牌和 %2 个提示令牌。</translation>
    </message>
    <message>
        <source>Compression measured on %1 (remote), median of 3 runs per budget; prefill and end-to-end times are not measured on a server.</source>
        <translation>压缩时间在 %1（远程）测得，每个预算取 3 次运行的中位数；预填充和端到端时间不在服务器上测量。</translation>
    </message>
    <message>
        <source>Measured on this machine, median of 3 runs per budget.</source>
        <translation>在本机测得，每个预算取 3 次运行的中位数。</translation>
    </message>
    <message>
        <source>Budget vs latency</source>
        <translation>预算与延迟</translation>
    </message>
    <message>
        <source>&amp;Measure Sweep</source>
        <translation>测量扫描(&amp;M)</translation>
    </message>
    <message>
        <source>Re-compress this video at budgets 1, 2, 4, … K and time each stage</source>
        <translation>以预算 1、2、4、… K 重新压缩此视频并为每个阶段计时</translation>
    </message>
    <message>
        <source>Token budget B</source>
        <translation>令牌预算 B</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <source>Prefill TFLOPs (%1)</source>
        <translation>预填充 TFLOPs（%1）</translation>
    </message>
    <message>
        <source>Press Measure Sweep to time re-compression over budgets.</source>
        <translation>点击“测量扫描”以测量不同预算下的重新压缩时间。</translation>
    </message>
    <message>
        <source>ONCE compression (select + reassign + pool)</source>
        <translation>ONCE 压缩（选择 + 重新分配 + 池化）</translation>
    </message>
    <message>
        <source>Assignment, once per video (%1 ms)</source>
        <translation>分配，每个视频一次（%1 毫秒）</translation>
    </message>
    <message>
        <source>Dense: %1</source>
        <translation>稠密：%1</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>end to end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <source>Prefill FLOPs, Dense (N = %1)</source>
        <translation>预填充 FLOPs，稠密（N = %1）</translation>
    </message>
    <message>
        <source>No model loaded: FLOPs use %1&apos;s dimensions, and prefill and end-to-end times are not measured.</source>
        <translation>未加载模型：FLOPs 按 %1 的维度计算，不测量预填充和端到端时间。</translation>
    </message>
    <message>
        <source>%1 compression</source>
        <translation>%1 压缩</translation>
    </message>
    <message>
        <source>Preparation, once per video (%1 ms)</source>
        <translation>准备，每个视频一次（%1 ms）</translation>
    </message>
    <message>
        <source>Prefill FLOPs, %1</source>
        <translation>预填充 FLOPs，%1</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>Measuring the sweep: the status bar shows its progress and can cancel it.</source>
        <translation>正在测量扫描：状态栏显示其进度，并可取消。</translation>
    </message>
    <message>
        <source>The sweep was cancelled after %1 of %2 budgets: the chart shows those measured.</source>
        <translation>扫描在测量了 %2 个预算中的 %1 个后被取消：图表显示已测量的预算。</translation>
    </message>
    <message>
        <source>The new sweep was cancelled: the chart still shows the previous one.</source>
        <translation>新的扫描已取消：图表仍显示上一次的扫描。</translation>
    </message>
    <message>
        <source>The sweep was cancelled before it finished: nothing was measured.</source>
        <translation>扫描在完成前已取消：没有测量任何数据。</translation>
    </message>
    <message>
        <source>&amp;Open Bench Results…</source>
        <translation>打开基准结果(&amp;O)…</translation>
    </message>
    <message>
        <source>Draw a `once bench` table: speed-up over Dense (and accuracy) against the budget for each method</source>
        <translation>绘制 `once bench` 表：每种方法相对稠密的加速比（及准确率）随预算的变化</translation>
    </message>
</context>
<context>
    <name>once::studio::BudgetPanel</name>
    <message>
        <source>%1, measured on %2</source>
        <translation>%1，在 %2 测得</translation>
    </message>
    <message>
        <source>Full (the paper&apos;s rule)</source>
        <translation>完整（论文中的规则）</translation>
    </message>
    <message>
        <source>No reassignment (drop unselected)</source>
        <translation>不重新分配（丢弃未选中的）</translation>
    </message>
    <message>
        <source>Fixed random codewords</source>
        <translation>固定随机码字</translation>
    </message>
    <message>
        <source>Frame-wise selection</source>
        <translation>逐帧选择</translation>
    </message>
    <message>
        <source>Random grouping</source>
        <translation>随机分组</translation>
    </message>
    <message>
        <source>Codeword output</source>
        <translation>码字输出</translation>
    </message>
    <message>
        <source>Medoid output</source>
        <translation>中心点输出</translation>
    </message>
    <message>
        <source>Token budget (log scale)</source>
        <translation>令牌预算（对数刻度）</translation>
    </message>
    <message>
        <source>Token budget</source>
        <translation>令牌预算</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>&amp;Budget B:</source>
        <translation>预算 B(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Variant:</source>
        <translation>变体(&amp;V)：</translation>
    </message>
    <message>
        <source>Groups M:</source>
        <translation>分组数 M：</translation>
    </message>
    <message>
        <source>Coverage:</source>
        <translation>覆盖率：</translation>
    </message>
    <message>
        <source>Tokens to the LLM:</source>
        <translation>输入大模型的令牌：</translation>
    </message>
    <message>
        <source>Compression:</source>
        <translation>压缩：</translation>
    </message>
    <message>
        <source>Time:</source>
        <translation>时间：</translation>
    </message>
    <message>
        <source>%1 of %2 used codewords</source>
        <translation>%1 / %2 个已用码字</translation>
    </message>
    <message>
        <source>%1 % of %2 tokens</source>
        <translation>%2 个令牌中的 %1 %</translation>
    </message>
    <message>
        <source>%1 → %2 tokens (%3×)</source>
        <translation>%1 → %2 个令牌（%3×）</translation>
    </message>
    <message>
        <source>%1 ms (select %2, reassign %3, pool %4)</source>
        <translation>%1 毫秒（选择 %2，重新分配 %3，池化 %4）</translation>
    </message>
    <message>
        <source>Needs a codebook.</source>
        <translation>需要码本。</translation>
    </message>
    <message>
        <source>Works on the video alone (no codebook).</source>
        <translation>仅凭视频即可运行（无需码本）。</translation>
    </message>
    <message>
        <source>Follows: %1</source>
        <translation>依据：%1</translation>
    </message>
    <message>
        <source>Compression method</source>
        <translation>压缩方法</translation>
    </message>
    <message>
        <source>ONCE or a peer baseline, compared at the same budget</source>
        <translation>ONCE 或对比基线方法，在相同预算下比较</translation>
    </message>
    <message>
        <source>&amp;Method:</source>
        <translation>方法(&amp;M)：</translation>
    </message>
    <message>
        <source>ONCE needs a codebook: open one (File ▸ Open Codebook…) or train one in the Trainer. The peer methods above work on the video alone.</source>
        <translation>ONCE 需要码本：请打开一个（文件 ▸ 打开码本…）或在训练器中训练一个。上面的对比方法仅凭视频即可运行。</translation>
    </message>
    <message>
        <source>%1 ms (prepared once per video in %2 ms)</source>
        <translation>%1 ms（每个视频准备一次，用时 %2 ms）</translation>
    </message>
    <message>
        <source>B = %1 is below the smallest budget: set to %2.</source>
        <translation>B = %1 小于最小预算：已设为 %2。</translation>
    </message>
    <message>
        <source>B = %1 is more than K = %2, the codebook&apos;s size: set to %2.</source>
        <translation>B = %1 超过码本大小 K = %2：已设为 %2。</translation>
    </message>
    <message>
        <source>B = %1 is more than N = %2, the video&apos;s tokens: set to %2.</source>
        <translation>B = %1 超过视频的 token 数 N = %2：已设为 %2。</translation>
    </message>
    <message>
        <source>The paper&apos;s rule: every token goes to its nearest codeword, the B most used codewords are kept, every token is reassigned to its nearest kept codeword and each group is averaged into one output token.</source>
        <translation>论文中的规则：每个令牌归入最近的码字，保留使用最多的 B 个码字，每个令牌重新分配到最近的保留码字，每组平均为一个输出令牌。</translation>
    </message>
    <message>
        <source>As Full, but tokens whose nearest codeword was not kept are dropped instead of reassigned: coverage falls below 100 %.</source>
        <translation>与“完整”相同，但最近码字未被保留的令牌会被丢弃而不是重新分配：覆盖率低于 100 %。</translation>
    </message>
    <message>
        <source>Keeps the first B codewords of one seeded random order (the same for every video) instead of the most used ones; tokens are reassigned to them.</source>
        <translation>保留一个带种子的随机顺序（所有视频相同）中的前 B 个码字，而不是使用最多的码字；令牌重新分配到这些码字。</translation>
    </message>
    <message>
        <source>Cuts the frames into segments; each segment keeps its own most used codewords from an even share of B and reassigns its own tokens.</source>
        <translation>将帧切分为若干段；每段按 B 的均分份额保留自己使用最多的码字，并重新分配自己的令牌。</translation>
    </message>
    <message>
        <source>Full&apos;s group sizes filled with randomly chosen tokens: shows what the codewords&apos; grouping is worth.</source>
        <translation>沿用“完整”的分组大小，但成员随机选取：显示码字分组的价值。</translation>
    </message>
    <message>
        <source>Full&apos;s groups, each output as its codeword instead of the mean of its tokens.</source>
        <translation>沿用“完整”的分组，每组输出其码字，而不是其令牌的均值。</translation>
    </message>
    <message>
        <source>Full&apos;s groups, each output as the member closest (cosine) to the group&apos;s mean.</source>
        <translation>沿用“完整”的分组，每组输出与组均值最接近（余弦）的成员。</translation>
    </message>
    <message>
        <source>Token budget B, from %1 to %2; a number outside is set to the nearest end</source>
        <translation>令牌预算 B，从 %1 到 %2；超出范围的数字会设为最近的一端</translation>
    </message>
    <message>
        <source>Token budget B on a log scale up to K</source>
        <translation>令牌预算 B，对数刻度，最大为 K</translation>
    </message>
    <message>
        <source>Token budget B on a log scale up to N (the video&apos;s tokens)</source>
        <translation>令牌预算 B，对数刻度，最大为 N（视频的令牌数）</translation>
    </message>
    <message>
        <source>Updating… (the numbers below are for B = %1)</source>
        <translation>正在更新…（下方数字对应 B = %1）</translation>
    </message>
    <message>
        <source>The numbers below are for B = %1: the compression for the current setting was cancelled or failed.</source>
        <translation>下方数字对应 B = %1：当前设置的压缩已取消或失败。</translation>
    </message>
    <message>
        <source>Features:</source>
        <translation>特征：</translation>
    </message>
    <message numerus="yes">
        <source>%n output token(s) (budget %1)</source>
        <translation>
            <numerusform>%n 个输出令牌（预算 %1）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>once::studio::ChartWidget</name>
    <message>
        <source>Export &amp;Image…</source>
        <translation>导出图像(&amp;I)…</translation>
    </message>
    <message>
        <source>Save the chart as PNG, SVG or PDF</source>
        <translation>将图表保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Export &amp;Data…</source>
        <translation>导出数据(&amp;D)…</translation>
    </message>
    <message>
        <source>Save the chart&apos;s data as CSV</source>
        <translation>将图表数据保存为 CSV</translation>
    </message>
    <message>
        <source>Export Chart Image</source>
        <translation>导出图表图像</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export Chart Data</source>
        <translation>导出图表数据</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Nothing to export yet</source>
        <translation>暂无可导出的内容</translation>
    </message>
</context>
<context>
    <name>once::studio::ChartsPanel</name>
    <message>
        <source>Code usage</source>
        <translation>码字使用</translation>
    </message>
    <message>
        <source>Residuals</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>Budget vs latency</source>
        <translation>预算与延迟</translation>
    </message>
    <message>
        <source>Per-task accuracy</source>
        <translation>各任务准确率</translation>
    </message>
    <message>
        <source>Open Evaluation Results</source>
        <translation>打开评测结果</translation>
    </message>
    <message>
        <source>Evaluation results (*.csv *.json);;All files (*)</source>
        <translation>评测结果 (*.csv *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open evaluation results</source>
        <translation>无法打开评测结果</translation>
    </message>
    <message>
        <source>Analyses</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Open Analysis Results</source>
        <translation>打开分析结果</translation>
    </message>
    <message>
        <source>Evaluation or analysis tables (*.csv);;All files (*)</source>
        <translation>评测或分析表格 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open analysis results</source>
        <translation>无法打开分析结果</translation>
    </message>
    <message>
        <source>Nothing was loaded from %1; the charts keep what they showed.

%2</source>
        <translation>未从 %1 加载任何内容；图表保持原样。

%2</translation>
    </message>
    <message>
        <source>Open Bench Results</source>
        <translation>打开基准结果</translation>
    </message>
    <message>
        <source>once bench results (*.json);;All files (*)</source>
        <translation>once bench 结果 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open bench results</source>
        <translation>无法打开基准结果</translation>
    </message>
</context>
<context>
    <name>once::studio::ClipExporter</name>
    <message>
        <source>Export Overlaid &amp;Clip…</source>
        <translation>导出叠加视频片段(&amp;C)…</translation>
    </message>
    <message>
        <source>Write the video with the codeword groups drawn on every frame, as MP4 or GIF</source>
        <translation>将每一帧都绘有码字分组的视频写出为 MP4 或 GIF</translation>
    </message>
    <message>
        <source>MP4 video (*.mp4)</source>
        <translation>MP4 视频 (*.mp4)</translation>
    </message>
    <message>
        <source>GIF animation (*.gif)</source>
        <translation>GIF 动画 (*.gif)</translation>
    </message>
    <message>
        <source>Export Overlaid Clip</source>
        <translation>导出叠加视频片段</translation>
    </message>
    <message>
        <source>Exporting the overlaid clip</source>
        <translation>正在导出叠加视频片段</translation>
    </message>
    <message>
        <source>Overlaid clip written to %1: %2 frames, %3, %4 × %5 at %6 fps.</source>
        <translation>叠加视频片段已写入 %1：%2 帧，%3，%4 × %5，%6 fps。</translation>
    </message>
</context>
<context>
    <name>once::studio::CodebookExplorer</name>
    <message>
        <source>Codeword ids, e.g. 7 or 3, 10-20</source>
        <translation>码字编号，例如 7 或 3, 10-20</translation>
    </message>
    <message>
        <source>Show only these codewords: ids and ranges separated by commas</source>
        <translation>只显示这些码字：以逗号分隔的编号和范围</translation>
    </message>
    <message>
        <source>Sort by id</source>
        <translation>按编号排序</translation>
    </message>
    <message>
        <source>Sort by corpus usage</source>
        <translation>按语料使用量排序</translation>
    </message>
    <message>
        <source>Sort by usage in this video</source>
        <translation>按本视频中的使用量排序</translation>
    </message>
    <message>
        <source>Corpus usage: the share of the training corpus&apos;s tokens nearest to the codeword. Usage in this video: its patches assigned to the codeword.</source>
        <translation>语料使用量：训练语料中最接近该码字的令牌所占比例。本视频中的使用量：分配给该码字的图块数。</translation>
    </message>
    <message>
        <source>Export Grid…</source>
        <translation>导出网格…</translation>
    </message>
    <message>
        <source>Save the tiles shown as a PNG picture</source>
        <translation>将显示的图块保存为 PNG 图片</translation>
    </message>
    <message>
        <source>Locate Corpus…</source>
        <translation>定位语料…</translation>
    </message>
    <message>
        <source>Choose the folder that holds the corpus videos the codebook was trained on, to show their patches</source>
        <translation>选择存放训练该码本所用语料视频的文件夹，以显示其中的图块</translation>
    </message>
    <message>
        <source>Reading the codebook&apos;s exemplars</source>
        <translation>正在读取码本的示例</translation>
    </message>
    <message>
        <source>Cutting exemplar patches from the corpus videos</source>
        <translation>正在从语料视频中截取示例图块</translation>
    </message>
    <message>
        <source>Open a codebook (or load the demo) to see its codewords.</source>
        <translation>打开码本（或加载演示）以查看其码字。</translation>
    </message>
    <message numerus="yes">
        <source>%n codeword(s)</source>
        <translation>
            <numerusform>%n 个码字</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 held in memory (not from a file). No exemplars: tiles show each codeword&apos;s colour.</source>
        <translation>%1，保存在内存中（并非来自文件）。没有示例：图块显示每个码字的颜色。</translation>
    </message>
    <message>
        <source>%1. Reading the codebook&apos;s exemplars…</source>
        <translation>%1。正在读取码本的示例…</translation>
    </message>
    <message>
        <source>%1. The codebook&apos;s exemplar section is damaged and was ignored: %2</source>
        <translation>%1。码本的示例部分已损坏，已忽略：%2</translation>
    </message>
    <message>
        <source>%1. No exemplars: codebook trained before provenance — it records neither corpus usage nor exemplar patches, so the tiles show each codeword&apos;s colour. Train it again (once train fit) to see them.</source>
        <translation>%1。没有示例：该码本在记录来源之前训练——它既没有记录语料使用量，也没有记录示例图块，因此图块显示每个码字的颜色。重新训练（once train fit）即可看到它们。</translation>
    </message>
    <message>
        <source>%1 with their corpus usage. No exemplars: the Stage-A cache this codebook was fitted on was sketched before provenance.</source>
        <translation>%1 及其语料使用量。没有示例：拟合该码本所用的 Stage-A 缓存是在记录来源之前生成的。</translation>
    </message>
    <message>
        <source>%1 with their corpus usage and up to %2 exemplar patches each, from the thumbnails stored in the codebook.</source>
        <translation>%1 及其语料使用量，每个最多 %2 个示例图块，来自码本中存储的缩略图。</translation>
    </message>
    <message>
        <source>%1 with their corpus usage. Cutting up to %2 exemplar patches each from the corpus videos in %3…</source>
        <translation>%1 及其语料使用量。正在从 %3 中的语料视频为每个码字截取最多 %2 个示例图块…</translation>
    </message>
    <message>
        <source>%1 with their corpus usage. The exemplar patches are not stored in this codebook and its corpus videos were not found (recorded folder: %2); Locate Corpus… points to the folder that holds them.</source>
        <translation>%1 及其语料使用量。该码本没有存储示例图块，也未找到其语料视频（记录的文件夹：%2）；可用“定位语料…”指向存放它们的文件夹。</translation>
    </message>
    <message>
        <source>%1 with their corpus usage and exemplar patches cut from the corpus videos in %2 (%3 of %4 videos read).</source>
        <translation>%1 及其语料使用量，示例图块截取自 %2 中的语料视频（已读取 %4 个视频中的 %3 个）。</translation>
    </message>
    <message>
        <source>%1 with their corpus usage.</source>
        <translation>%1 及其语料使用量。</translation>
    </message>
    <message>
        <source>Open a video to see each codeword&apos;s usage in it.</source>
        <translation>打开视频以查看每个码字在其中的使用量。</translation>
    </message>
    <message>
        <source>Choosing a codeword highlights its patches with the ONCE method only.</source>
        <translation>只有使用 ONCE 方法时，选择码字才会高亮其图块。</translation>
    </message>
    <message>
        <source>The search is not a list of codeword ids (e.g. 7 or 3, 10-20).</source>
        <translation>搜索内容不是码字编号列表（例如 7 或 3, 10-20）。</translation>
    </message>
    <message>
        <source>Choose a codeword to highlight its patches in every frame.</source>
        <translation>选择一个码字，在每一帧中高亮其图块。</translation>
    </message>
    <message>
        <source>Codeword %1</source>
        <translation>码字 %1</translation>
    </message>
    <message numerus="yes">
        <source>corpus: %1 tokens (%2 %) from %3 representatives in %n video(s)</source>
        <translation>
            <numerusform>语料：%1 个令牌（%2 %），来自 %n 个视频中的 %3 个代表</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>this video: %n patch(es)</source>
        <translation>
            <numerusform>本视频：%n 个图块</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 at %2 s (row %3, column %4)</source>
        <translation>%1，%2 秒（第 %3 行，第 %4 列）</translation>
    </message>
    <message>
        <source>%1 frame %2 (row %3, column %4)</source>
        <translation>%1 第 %2 帧（第 %3 行，第 %4 列）</translation>
    </message>
    <message>
        <source>exemplars: %1</source>
        <translation>示例：%1</translation>
    </message>
    <message>
        <source>codebook in memory</source>
        <translation>内存中的码本</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 of %n codeword(s) · %3</source>
        <translation>
            <numerusform>%1 · %n 个码字中的 %2 个 · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Codebook Grid</source>
        <translation>导出码本网格</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Locate the Corpus Folder</source>
        <translation>定位语料文件夹</translation>
    </message>
</context>
<context>
    <name>once::studio::CodebookProjector</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Codeword to find</source>
        <translation>要查找的码字</translation>
    </message>
    <message>
        <source>&amp;Find codeword:</source>
        <translation>查找码字(&amp;F)：</translation>
    </message>
    <message>
        <source>Show this video&apos;s &amp;tokens</source>
        <translation>显示此视频的令牌(&amp;T)</translation>
    </message>
    <message>
        <source>The codewords of highest cosine to the chosen one; double-click to choose one.</source>
        <translation>与所选码字余弦最高的码字；双击可选择其中之一。</translation>
    </message>
    <message>
        <source>Most similar codewords:</source>
        <translation>最相似的码字：</translation>
    </message>
    <message>
        <source>Open a codebook to see its map.</source>
        <translation>打开码本以查看其映射图。</translation>
    </message>
    <message>
        <source>No codebook.</source>
        <translation>没有码本。</translation>
    </message>
    <message>
        <source>Projecting the codebook</source>
        <translation>正在投影码本</translation>
    </message>
    <message>
        <source>%1 codewords, %2 tokens of this video; the two axes hold %3 % of the codewords&apos; variance.</source>
        <translation>%1 个码字，此视频的 %2 个令牌；两个坐标轴占码字方差的 %3 %。</translation>
    </message>
    <message>
        <source>Finding similar codewords</source>
        <translation>正在查找相似码字</translation>
    </message>
    <message>
        <source>codeword %1 · cosine %2</source>
        <translation>码字 %1 · 余弦 %2</translation>
    </message>
</context>
<context>
    <name>once::studio::CodewordTileDelegate</name>
    <message numerus="yes">
        <source>%n in video</source>
        <translation>
            <numerusform>视频中 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>once::studio::CompressionController</name>
    <message>
        <source>Compression failed on %1</source>
        <translation>在 %1 上压缩失败</translation>
    </message>
    <message>
        <source>Compressing with %1 at B = %2 on %3</source>
        <translation>正在 %3 上以 %1 压缩（B = %2）</translation>
    </message>
    <message>
        <source>Compressing on this machine instead.</source>
        <translation>改为在本机压缩。</translation>
    </message>
    <message>
        <source>%1 compresses a token grid of %2 tokens, not the %3 of the video on screen (another encoder, sampling or pooling here). %4</source>
        <translation>%1 压缩的令牌网格有 %2 个令牌，而不是屏幕上视频的 %3 个（本机使用了不同的编码器、采样或池化）。%4</translation>
    </message>
    <message>
        <source>Measuring the budget sweep of %1 on %2</source>
        <translation>正在 %2 上测量 %1 的预算扫描</translation>
    </message>
    <message>
        <source>Budget sweep failed on %1</source>
        <translation>在 %1 上预算扫描失败</translation>
    </message>
    <message>
        <source>Budget sweep failed</source>
        <translation>预算扫描失败</translation>
    </message>
    <message>
        <source>Unknown compression method</source>
        <translation>未知的压缩方法</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a compression method. Known methods: %2.</source>
        <translation>“%1”不是压缩方法。已知方法：%2。</translation>
    </message>
    <message>
        <source>Cannot prepare %1</source>
        <translation>无法准备 %1</translation>
    </message>
    <message>
        <source>Preparing %1</source>
        <translation>正在准备 %1</translation>
    </message>
    <message>
        <source>Compression failed</source>
        <translation>压缩失败</translation>
    </message>
    <message>
        <source>Compressing with %1 at B = %2</source>
        <translation>正在以 %1 压缩（B = %2）</translation>
    </message>
    <message>
        <source>Measuring the budget sweep of %1</source>
        <translation>正在测量 %1 的预算扫描</translation>
    </message>
</context>
<context>
    <name>once::studio::ConnectServerDialog</name>
    <message>
        <source>Connect to Server</source>
        <translation>连接到服务器</translation>
    </message>
    <message>
        <source>The address `once serve` prints when it starts</source>
        <translation>`once serve` 启动时打印的地址</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The key in the server&apos;s --api-key-file (empty when it has none)</source>
        <translation>服务器 --api-key-file 中的密钥（服务器没有密钥时留空）</translation>
    </message>
    <message>
        <source>&amp;Remember the key</source>
        <translation>记住密钥(&amp;R)</translation>
    </message>
    <message>
        <source>The key will be stored in plain text in %1. Leave this unticked to keep it in memory for this session only.</source>
        <translation>密钥将以明文形式保存在 %1 中。不勾选此项则只在本次会话的内存中保留密钥。</translation>
    </message>
    <message>
        <source>Server &amp;URL:</source>
        <translation>服务器 &amp;URL：</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Connected to %1 (model %2).</source>
        <translation>已连接到 %1（模型 %2）。</translation>
    </message>
    <message>
        <source>Not connected: %1</source>
        <translation>未连接：%1</translation>
    </message>
    <message>
        <source>Enter the server&apos;s URL, such as http://gpu-host:8080.</source>
        <translation>请输入服务器的 URL，例如 http://gpu-host:8080。</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
</context>
<context>
    <name>once::studio::FrameOverlayView</name>
    <message>
        <source>Frame with codeword groups</source>
        <translation>带码字分组的帧</translation>
    </message>
    <message>
        <source>Open a video or load the demo (File ▸ Load Demo) to see how ONCE groups its tokens.</source>
        <translation>打开视频或加载演示（文件 ▸ 加载演示），查看 ONCE 如何对令牌分组。</translation>
    </message>
    <message>
        <source>Frame %1 of %2 · %3 s</source>
        <translation>第 %1 / %2 帧 · %3 秒</translation>
    </message>
    <message>
        <source>no codebook: open one to see the groups</source>
        <translation>没有码本：打开一个码本以查看分组</translation>
    </message>
    <message>
        <source>Frame %1, patch (%2, %3)</source>
        <translation>第 %1 帧，图块 (%2, %3)</translation>
    </message>
    <message>
        <source>Dropped: its nearest codeword %1 is not selected</source>
        <translation>已丢弃：其最近的码字 %1 未被选中</translation>
    </message>
    <message>
        <source>Cosine residual %1</source>
        <translation>余弦残差 %1</translation>
    </message>
    <message>
        <source>Dropped: in no output token</source>
        <translation>已丢弃：不属于任何输出令牌</translation>
    </message>
    <message>
        <source>zoom %1×</source>
        <translation>缩放 %1×</translation>
    </message>
    <message numerus="yes">
        <source>group #%1 (codeword %2): %n patch(es) in this frame</source>
        <translation>
            <numerusform>分组 #%1（码字 %2）：本帧中 %n 个图块</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>group #%1: %n patch(es) in this frame</source>
        <translation>
            <numerusform>分组 #%1：本帧中 %n 个图块</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Group rank %1 · codeword %2 · %n token(s)</source>
        <translation>
            <numerusform>分组排名 %1 · 码字 %2 · %n 个令牌</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Select This Group</source>
        <translation>选择此分组(&amp;S)</translation>
    </message>
    <message>
        <source>C&amp;lear Selection</source>
        <translation>清除选择(&amp;L)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fit Frame</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Copy Frame Image</source>
        <translation>复制帧图像(&amp;C)</translation>
    </message>
    <message>
        <source>Export &amp;Frame Image…</source>
        <translation>导出帧图像(&amp;F)…</translation>
    </message>
    <message>
        <source>Export &amp;All Frames as a Grid…</source>
        <translation>将所有帧导出为网格图(&amp;A)…</translation>
    </message>
    <message>
        <source>Export the S&amp;trip…</source>
        <translation>导出缩略图条(&amp;T)…</translation>
    </message>
    <message>
        <source>Export Frames as an Image &amp;Sequence…</source>
        <translation>将帧导出为图像序列(&amp;S)…</translation>
    </message>
    <message>
        <source>PNG image (*.png);;JPEG image (*.jpg)</source>
        <translation>PNG 图像 (*.png);;JPEG 图像 (*.jpg)</translation>
    </message>
    <message>
        <source>Export Frame Image</source>
        <translation>导出帧图像</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export All Frames</source>
        <translation>导出所有帧</translation>
    </message>
    <message>
        <source>Export Strip</source>
        <translation>导出缩略图条</translation>
    </message>
    <message>
        <source>Export Frames as an Image Sequence (choose an empty folder)</source>
        <translation>将帧导出为图像序列（请选择空文件夹）</translation>
    </message>
    <message>
        <source>Writing overlay frames…</source>
        <translation>正在写入叠加帧…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Frames exported</source>
        <translation>帧已导出</translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s) written to %1 as overlay_0001.png, …. To make a video of them:
%2</source>
        <translation>
            <numerusform>已将 %n 帧写入 %1（overlay_0001.png, …）。用它们生成视频：
%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>codeword %1: %n assigned patch(es) in this frame</source>
        <translation>
            <numerusform>码字 %1：本帧中分配给它的 %n 个图块</numerusform>
        </translation>
    </message>
    <message>
        <source>codeword %1: its patches show with the ONCE method</source>
        <translation>码字 %1：使用 ONCE 方法时显示其图块</translation>
    </message>
    <message>
        <source>Show Codeword %1 in the &amp;Codebook View</source>
        <translation>在码本视图中显示码字 %1(&amp;C)</translation>
    </message>
    <message>
        <source>Show Codeword in the &amp;Codebook View</source>
        <translation>在码本视图中显示码字(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Inspect This Patch</source>
        <translation>检查此图块(&amp;I)</translation>
    </message>
</context>
<context>
    <name>once::studio::FrameStrip</name>
    <message>
        <source>Sampled frames</source>
        <translation>采样帧</translation>
    </message>
</context>
<context>
    <name>once::studio::MainWindow</name>
    <message>
        <source>Ready. File ▸ Load Demo shows everything at once.</source>
        <translation>就绪。文件 ▸ 加载演示 可一次展示全部功能。</translation>
    </message>
    <message>
        <source>Opened %1: %2 frames × %3 patches × %4 dims (%5)</source>
        <translation>已打开 %1：%2 帧 × %3 个图块 × %4 维（%5）</translation>
    </message>
    <message>
        <source>Codebook %1: K = %2, D = %3</source>
        <translation>码本 %1：K = %2，D = %3</translation>
    </message>
    <message>
        <source>Model folder %1 (%2)</source>
        <translation>模型文件夹 %1（%2）</translation>
    </message>
    <message>
        <source>Assigned %1 tokens to their nearest codewords in %2 ms (%3)</source>
        <translation>已在 %2 毫秒内将 %1 个令牌分配到最近的码字（%3）</translation>
    </message>
    <message>
        <source>Training failed</source>
        <translation>训练失败</translation>
    </message>
    <message>
        <source>Open Video</source>
        <translation>打开视频</translation>
    </message>
    <message>
        <source>Open Feature File</source>
        <translation>打开特征文件</translation>
    </message>
    <message>
        <source>Feature files (*.safetensors);;All files (*)</source>
        <translation>特征文件 (*.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Codebook</source>
        <translation>打开码本</translation>
    </message>
    <message>
        <source>Codebooks (*.safetensors *.npy *.pt *.pth *.bin);;All files (*)</source>
        <translation>码本 (*.safetensors *.npy *.pt *.pth *.bin);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Model Folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <source>The new language applies when ONCE Studio restarts.</source>
        <translation>新语言将在 ONCE Studio 重新启动后生效。</translation>
    </message>
    <message>
        <source>About ONCE Studio</source>
        <translation>关于 ONCE Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;ONCE Studio %1&lt;/h3&gt;&lt;p&gt;Video-token compression with a global codebook: every visual token is assigned to its nearest codeword, the B most used codewords are kept, tokens are reassigned among them and each group is mean-pooled.&lt;/p&gt;&lt;p&gt;See what compression does to a video, ask questions at a chosen budget, and train codebooks for your own backbone.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;ONCE Studio %1&lt;/h3&gt;&lt;p&gt;基于全局码本的视频令牌压缩：每个视觉令牌被分配到最近的码字，保留使用最多的 B 个码字，令牌在其中重新分配，并对每组取平均池化。&lt;/p&gt;&lt;p&gt;查看压缩对视频的作用，在所选预算下提问，并为自己的骨干网络训练码本。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Videos (%1);;All files (*)</source>
        <translation>视频 (%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Messages from the ONCE engine are in English, exactly as the command line prints them: they name the file, the field, what was expected and what was found.</source>
        <translation>来自 ONCE 引擎的消息与命令行输出完全相同，保持英文：其中写明了文件、字段、期望值和实际值。</translation>
    </message>
    <message>
        <source>Budget sweep cancelled: the chart keeps the budgets measured before the cancel, or what it showed before when none was.</source>
        <translation>预算扫描已取消：图表保留取消前已测量的预算；若尚未测量任何预算，则保留之前显示的内容。</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>once::studio::OverlayControls</name>
    <message>
        <source>Overlay opacity</source>
        <translation>叠加不透明度</translation>
    </message>
    <message>
        <source>Group colour</source>
        <translation>分组颜色</translation>
    </message>
    <message>
        <source>Group mean colour</source>
        <translation>分组平均颜色</translation>
    </message>
    <message>
        <source>Overlay colours</source>
        <translation>叠加颜色</translation>
    </message>
    <message>
        <source>O&amp;utlines</source>
        <translation>轮廓(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Opacity:</source>
        <translation>不透明度(&amp;O)：</translation>
    </message>
    <message>
        <source>Residual heat-map</source>
        <translation>残差热力图</translation>
    </message>
    <message>
        <source>Residual colour scale</source>
        <translation>残差色标</translation>
    </message>
    <message>
        <source>Click a patch to highlight its group in all frames and inspect it; hatched patches were dropped.</source>
        <translation>点击图块可在所有帧中高亮其分组并检查它；带斜线的图块已被丢弃。</translation>
    </message>
    <message>
        <source>Residual 1 − cos(token, its codeword): 0 … %1 (the largest in this result)</source>
        <translation>残差 1 − cos(令牌, 其码字)：0 … %1（本结果中的最大值）</translation>
    </message>
</context>
<context>
    <name>once::studio::PatchInspector</name>
    <message>
        <source>Nearest codewords listed</source>
        <translation>列出的最近码字数</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>名次</translation>
    </message>
    <message>
        <source>Codeword</source>
        <translation>码字</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>In this result</source>
        <translation>在本结果中</translation>
    </message>
    <message>
        <source>Double-click a codeword to highlight its patches in every frame.</source>
        <translation>双击码字可在每一帧中高亮其图块。</translation>
    </message>
    <message>
        <source>Output token:</source>
        <translation>输出令牌：</translation>
    </message>
    <message>
        <source>Group codeword:</source>
        <translation>分组码字：</translation>
    </message>
    <message>
        <source>Residual:</source>
        <translation>残差：</translation>
    </message>
    <message>
        <source>Cosine to its output token:</source>
        <translation>与其输出令牌的余弦：</translation>
    </message>
    <message>
        <source>&amp;Nearest codewords:</source>
        <translation>最近码字(&amp;N)：</translation>
    </message>
    <message>
        <source>Click a patch in the frame to inspect it.</source>
        <translation>点击帧中的图块以检查它。</translation>
    </message>
    <message>
        <source>No compression on screen yet: the patch is inspected when it arrives.</source>
        <translation>尚无压缩结果：结果到达后将检查该图块。</translation>
    </message>
    <message>
        <source>The features of this video are not on this machine.</source>
        <translation>此视频的特征不在本机上。</translation>
    </message>
    <message>
        <source>Inspecting a patch</source>
        <translation>正在检查图块</translation>
    </message>
    <message>
        <source>Frame %1 · row %2, column %3 · token %4</source>
        <translation>第 %1 帧 · 第 %2 行，第 %3 列 · 令牌 %4</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2, pooled from a group of %n token(s)</source>
        <translation>
            <numerusform>第 %1 个（共 %2 个），由 %n 个令牌的分组池化而成</numerusform>
        </translation>
    </message>
    <message>
        <source>none: the token was dropped and feeds no output token</source>
        <translation>无：该令牌已被丢弃，不进入任何输出令牌</translation>
    </message>
    <message>
        <source>none: this method groups tokens without codewords</source>
        <translation>无：此方法不借助码字对令牌分组</translation>
    </message>
    <message>
        <source>none (its nearest codeword k̂ = %1 was not selected)</source>
        <translation>无（其最近码字 k̂ = %1 未被选中）</translation>
    </message>
    <message>
        <source>%1, its nearest codeword k̂ (cosine %2)</source>
        <translation>%1，即其最近码字 k̂（余弦 %2）</translation>
    </message>
    <message>
        <source>%1, rank %2 of its codewords (cosine %3): reassigned, its nearest k̂ = %4 was not among the selected</source>
        <translation>%1，在其码字中排第 %2（余弦 %3）：已重新分配，其最近码字 k̂ = %4 未被选中</translation>
    </message>
    <message>
        <source>— (this method has no codebook)</source>
        <translation>—（此方法没有码本）</translation>
    </message>
    <message>
        <source>%1 (1 − cos to its codeword)</source>
        <translation>%1（1 − 与其码字的余弦）</translation>
    </message>
    <message>
        <source>its group</source>
        <translation>其分组</translation>
    </message>
    <message>
        <source>selected</source>
        <translation>已选中</translation>
    </message>
</context>
<context>
    <name>once::studio::ProjectionChart</name>
    <message>
        <source>Codebook projector</source>
        <translation>码本投影</translation>
    </message>
    <message>
        <source>this video&apos;s tokens</source>
        <translation>此视频的令牌</translation>
    </message>
    <message>
        <source>codewords</source>
        <translation>码字</translation>
    </message>
    <message>
        <source>selected by this result</source>
        <translation>本结果选中的码字</translation>
    </message>
    <message>
        <source>tokens with k̂ = %1</source>
        <translation>k̂ = %1 的令牌</translation>
    </message>
    <message>
        <source>most similar codewords</source>
        <translation>最相似的码字</translation>
    </message>
    <message>
        <source>codeword %1</source>
        <translation>码字 %1</translation>
    </message>
    <message>
        <source>inspected patch</source>
        <translation>正在检查的图块</translation>
    </message>
    <message>
        <source>PC 1 (%1 % of variance)</source>
        <translation>主成分 1（方差的 %1 %）</translation>
    </message>
    <message>
        <source>PC 2 (%1 % of variance)</source>
        <translation>主成分 2（方差的 %1 %）</translation>
    </message>
    <message>
        <source>PCA of the %1 unit codewords; tokens projected on the same axes as directions (cosine). Click a codeword to choose it; drag to pan, wheel to zoom.</source>
        <translation>%1 个单位码字的主成分分析；令牌按方向（余弦）投影到相同坐标轴上。点击码字以选择它；拖动平移，滚轮缩放。</translation>
    </message>
</context>
<context>
    <name>once::studio::QuestionPanel</name>
    <message>
        <source>Ask about the video, e.g. “What happens after the door opens?”</source>
        <translation>就视频提问，例如“门打开之后发生了什么？”</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>提问</translation>
    </message>
    <message>
        <source>&amp;Ask</source>
        <translation>提问(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Compare with &amp;Dense</source>
        <translation>与稠密对比(&amp;D)</translation>
    </message>
    <message>
        <source>Also answer from all visual tokens, as the reference</source>
        <translation>同时使用全部视觉令牌回答，作为参照</translation>
    </message>
    <message>
        <source>max </source>
        <translation>最多 </translation>
    </message>
    <message>
        <source>&lt;b&gt;Dense&lt;/b&gt;</source>
        <translation>&lt;b&gt;稠密&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Dense</source>
        <translation>稠密</translation>
    </message>
    <message>
        <source>The question could not be answered: %1</source>
        <translation>无法回答该问题：%1</translation>
    </message>
    <message>
        <source>Answering</source>
        <translation>正在回答</translation>
    </message>
    <message>
        <source>&lt;b&gt;Dense&lt;/b&gt;: not asked</source>
        <translation>&lt;b&gt;稠密&lt;/b&gt;：未提问</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, B = %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，B = %2</translation>
    </message>
    <message>
        <source>Open a Matching &amp;Codebook…</source>
        <translation>打开匹配的码本(&amp;C)…</translation>
    </message>
    <message>
        <source>A codebook trained on features of this model&apos;s encoder</source>
        <translation>在该模型编码器的特征上训练的码本</translation>
    </message>
    <message>
        <source>&amp;Re-encode the Video with the Model&apos;s Encoder</source>
        <translation>用模型的编码器重新编码视频(&amp;R)</translation>
    </message>
    <message>
        <source>The overlay, the charts and the Trainer then use the model&apos;s features; a codebook for them is still needed for the compressed answer.</source>
        <translation>之后叠加层、图表和训练器将使用模型的特征；压缩回答仍需要与这些特征匹配的码本。</translation>
    </message>
    <message>
        <source>No %1 answer: %2</source>
        <translation>没有 %1 回答：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: failed</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：失败</translation>
    </message>
    <message>
        <source>The %1 answer failed: %2</source>
        <translation>%1 回答失败：%2</translation>
    </message>
    <message numerus="yes">
        <source> token(s)</source>
        <translation>
            <numerusform> 个令牌</numerusform>
        </translation>
    </message>
    <message>
        <source>Copy Answers</source>
        <translation>复制回答</translation>
    </message>
    <message>
        <source>Copy the question and both answers</source>
        <translation>复制问题和两个回答</translation>
    </message>
    <message>
        <source>Save Answers…</source>
        <translation>保存回答…</translation>
    </message>
    <message>
        <source>Save the question, both answers and the statistics as text</source>
        <translation>将问题、两个回答和统计数据保存为文本</translation>
    </message>
    <message>
        <source>Copy Table</source>
        <translation>复制表格</translation>
    </message>
    <message>
        <source>Copy the statistics as tab-separated text</source>
        <translation>将统计数据复制为制表符分隔的文本</translation>
    </message>
    <message>
        <source>Export Table…</source>
        <translation>导出表格…</translation>
    </message>
    <message>
        <source>Save the statistics as CSV</source>
        <translation>将统计数据保存为 CSV</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Save Answers</source>
        <translation>保存回答</translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation>文本 (*.txt)</translation>
    </message>
    <message>
        <source>Export Statistics</source>
        <translation>导出统计数据</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>No codebook is loaded: only the Dense answer is available.</source>
        <translation>未加载码本：只能给出稠密回答。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: no codebook</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：没有码本</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dense&lt;/b&gt;, %n visual token(s)</source>
        <translation>
            <numerusform>&lt;b&gt;稠密&lt;/b&gt;，%n 个视觉令牌</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;, B = %2, %n visual token(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;，B = %2，%n 个视觉令牌</numerusform>
        </translation>
    </message>
    <message>
        <source>Question: %1</source>
        <translation>问题：%1</translation>
    </message>
    <message>
        <source>statistic</source>
        <translation>统计项</translation>
    </message>
    <message>
        <source>&lt;b&gt;Dense&lt;/b&gt; (from the saved session)</source>
        <translation>&lt;b&gt;稠密&lt;/b&gt;（来自保存的会话）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Compressed&lt;/b&gt; (from the saved session)</source>
        <translation>&lt;b&gt;压缩&lt;/b&gt;（来自保存的会话）</translation>
    </message>
    <message>
        <source>The video, codebook and answers stay; ask again, reconnect (File ▸ Connect to Server…) or disconnect to answer on this machine.</source>
        <translation>视频、码本和回答均已保留；可以重新提问、重新连接（文件 ▸ 连接到服务器…），或断开连接以在本机回答。</translation>
    </message>
    <message>
        <source>Questions go to %1 (remote): the server answers with its model and codebook.</source>
        <translation>问题发送到 %1（远程）：服务器使用它自己的模型和码本作答。</translation>
    </message>
    <message>
        <source>Times measured on this machine.</source>
        <translation>时间在本机测得。</translation>
    </message>
    <message>
        <source>Times measured on %1 (remote).</source>
        <translation>时间在 %1（远程）测得。</translation>
    </message>
    <message>
        <source>The server&apos;s kept groups are for another token grid than the video here (open the server&apos;s model folder here to see them on the frames).</source>
        <translation>服务器保留的分组对应的令牌网格与本机的视频不同（在本机打开服务器的模型文件夹即可在画面上查看）。</translation>
    </message>
</context>
<context>
    <name>once::studio::RecentFilesMenu</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>清除列表(&amp;C)</translation>
    </message>
</context>
<context>
    <name>once::studio::RemoteConnection</name>
    <message>
        <source>The connection check was cancelled.</source>
        <translation>连接检查已取消。</translation>
    </message>
    <message>
        <source>Connecting to %1</source>
        <translation>正在连接到 %1</translation>
    </message>
</context>
<context>
    <name>once::studio::ResidualChart</name>
    <message>
        <source>Cosine residual distribution</source>
        <translation>余弦残差分布</translation>
    </message>
    <message>
        <source>This video, nearest of all K codewords</source>
        <translation>此视频，全部 K 个码字中最近的</translation>
    </message>
    <message>
        <source>This video, after reassignment at B = %1</source>
        <translation>此视频，在 B = %1 重新分配后</translation>
    </message>
    <message>
        <source>Cosine residual 1 − cos(x, c)</source>
        <translation>余弦残差 1 − cos(x, c)</translation>
    </message>
    <message>
        <source>Density</source>
        <translation>密度</translation>
    </message>
    <message>
        <source>No assignment yet: open a video and a codebook.</source>
        <translation>尚无分配结果：请打开视频和码本。</translation>
    </message>
    <message>
        <source>This video: %1.</source>
        <translation>此视频：%1。</translation>
    </message>
    <message>
        <source>The codebook file records no corpus residuals.</source>
        <translation>码本文件未记录语料残差。</translation>
    </message>
    <message>
        <source>%1 corpus</source>
        <translation>%1 语料</translation>
    </message>
</context>
<context>
    <name>once::studio::SessionAutosave</name>
    <message>
        <source>The autosave lock %1 could not be taken.</source>
        <translation>无法获取自动保存锁 %1。</translation>
    </message>
</context>
<context>
    <name>once::studio::SessionBinder</name>
    <message>
        <source>computing the %1 groups…</source>
        <translation>正在计算 %1 的分组…</translation>
    </message>
    <message>
        <source>no %1 groups: the computation was cancelled or failed (move the budget to try again)</source>
        <translation>没有 %1 的分组：计算已取消或失败（调整预算以重试）</translation>
    </message>
    <message>
        <source>%1 encoder (from a feature file)</source>
        <translation>%1 编码器（来自特征文件）</translation>
    </message>
    <message>
        <source>%1 encoder</source>
        <translation>%1 编码器</translation>
    </message>
    <message>
        <source>%1; the model folder&apos;s encoder is %2 (not re-encoded)</source>
        <translation>%1；模型文件夹的编码器是 %2（未重新编码）</translation>
    </message>
</context>
<context>
    <name>once::studio::SessionFileController</name>
    <message>
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>ONCE sessions (*%1);;All files (*)</source>
        <translation>ONCE 会话 (*%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save Session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>Session saved to %1</source>
        <translation>会话已保存到 %1</translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>Opening session %1</source>
        <translation>正在打开会话 %1</translation>
    </message>
    <message>
        <source>The session was opened without some of its parts</source>
        <translation>会话已打开，但缺少部分内容</translation>
    </message>
    <message>
        <source>%1 could not restore everything; the rest is open.

%2</source>
        <translation>%1 未能全部恢复；其余部分已打开。

%2</translation>
    </message>
    <message>
        <source>The autosave %1 cannot be read: %2</source>
        <translation>无法读取自动保存文件 %1：%2</translation>
    </message>
    <message>
        <source>Restore the Last Session?</source>
        <translation>恢复上次的会话？</translation>
    </message>
    <message>
        <source>ONCE Studio did not close normally last time. Restore what was open then (%1), with its method, budget and last question?</source>
        <translation>ONCE Studio 上次没有正常关闭。是否恢复当时打开的内容（%1），以及其方法、预算和最后一个问题？</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>Restoring the session of the last run from %1</source>
        <translation>正在从 %1 恢复上次运行的会话</translation>
    </message>
    <message>
        <source>Re-encode the Video?</source>
        <translation>重新编码视频？</translation>
    </message>
    <message>
        <source>The video&apos;s features come from the %1 encoder; the model folder&apos;s encoder is %2. Re-encode the video with it, so the model, its codebooks and the charts see the same features?</source>
        <translation>视频的特征来自 %1 编码器；模型文件夹的编码器是 %2。是否用它重新编码视频，使模型、其码本和图表看到相同的特征？</translation>
    </message>
    <message>
        <source>&amp;Re-encode</source>
        <translation>重新编码(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Not Now</source>
        <translation>暂不(&amp;N)</translation>
    </message>
    <message>
        <source>The video keeps the features of the %1 encoder.</source>
        <translation>视频保留 %1 编码器的特征。</translation>
    </message>
</context>
<context>
    <name>once::studio::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CUDA GPU</source>
        <translation>CUDA GPU</translation>
    </message>
    <message>
        <source>Automatic (GPU when present)</source>
        <translation>自动（有 GPU 时使用 GPU）</translation>
    </message>
    <message>
        <source>No CUDA device or no CUDA build of LibTorch</source>
        <translation>没有 CUDA 设备，或 LibTorch 不是 CUDA 版本</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>float16</source>
        <translation>float16</translation>
    </message>
    <message>
        <source>bfloat16</source>
        <translation>bfloat16</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>uniform:N (N evenly spaced frames), fps:F or fps:F:MIN:MAX, with an optional window @START-END in seconds</source>
        <translation>uniform:N（N 个均匀间隔的帧）、fps:F 或 fps:F:MIN:MAX，可加可选时间窗 @起始-结束（秒）</translation>
    </message>
    <message>
        <source>All patches (27×27, the paper)</source>
        <translation>全部图块（27×27，论文设置）</translation>
    </message>
    <message>
        <source>2×2 pooled (14×14, reference code default)</source>
        <translation>2×2 池化（14×14，参考代码默认）</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>&amp;Backbone:</source>
        <translation>骨干网络(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Device:</source>
        <translation>设备(&amp;D)：</translation>
    </message>
    <message>
        <source>D&amp;ata type:</source>
        <translation>数据类型(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Threads:</source>
        <translation>线程数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Frame sampling:</source>
        <translation>帧采样(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Patch grid:</source>
        <translation>图块网格(&amp;P)：</translation>
    </message>
    <message>
        <source>The %1 vision tower merges patches itself; this setting applies to backbones that pool the patch grid</source>
        <translation>%1 的视觉塔自行合并图块；此设置仅用于对图块网格做池化的骨干模型</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>A new language applies when ONCE Studio restarts.</source>
        <translation>新语言将在 ONCE Studio 重新启动后生效。</translation>
    </message>
    <message>
        <source>This frame sampling rule is not valid, so the settings were not applied. Examples: uniform:32, fps:1, fps:2:8:64@0-30.
%1</source>
        <translation>此帧采样规则无效，设置未应用。示例：uniform:32、fps:1、fps:2:8:64@0-30。
%1</translation>
    </message>
</context>
<context>
    <name>once::studio::SoundControls</name>
    <message>
        <source>Mute the sound</source>
        <translation>静音</translation>
    </message>
    <message>
        <source>Mute</source>
        <translation>静音</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>音量</translation>
    </message>
    <message>
        <source>Unmute the sound</source>
        <translation>取消静音</translation>
    </message>
    <message>
        <source>No sound at %1× (the sound plays at 1× only)</source>
        <translation>%1× 时无声音（声音只在 1× 时播放）</translation>
    </message>
</context>
<context>
    <name>once::studio::StudioSession</name>
    <message>
        <source>The codebook was unloaded because it does not fit the new video: %1</source>
        <translation>码本已卸载，因为它与新视频不匹配：%1</translation>
    </message>
</context>
<context>
    <name>once::studio::TaskRadarChart</name>
    <message>
        <source>Per-task accuracy</source>
        <translation>各任务准确率</translation>
    </message>
    <message>
        <source>&amp;Open Evaluation Results…</source>
        <translation>打开评测结果(&amp;O)…</translation>
    </message>
    <message>
        <source>No evaluation results loaded. Open a CSV (task,method,accuracy) or the evaluation harness&apos;s JSON to compare methods task by task.</source>
        <translation>未加载评测结果。打开 CSV（task,method,accuracy）或评测工具输出的 JSON，可逐任务比较各方法。</translation>
    </message>
    <message>
        <source>%1 tasks, %2 methods, from %3.</source>
        <translation>%1 个任务，%2 种方法，来自 %3。</translation>
    </message>
</context>
<context>
    <name>once::studio::TaskStatus</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the running work</source>
        <translation>停止正在运行的任务</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
</context>
<context>
    <name>once::studio::TrainerOptionsForm</name>
    <message>
        <source>Stage A: corpus sketch</source>
        <translation>阶段 A：语料概要</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>Record unreadable videos as failed and go on</source>
        <translation>将无法读取的视频记为失败并继续</translation>
    </message>
    <message>
        <source>Timeline bins L:</source>
        <translation>时间轴分箱数 L：</translation>
    </message>
    <message>
        <source>Tokens per representative R:</source>
        <translation>每个代表的令牌数 R：</translation>
    </message>
    <message>
        <source>Smallest sketch m_min:</source>
        <translation>最小概要 m_min：</translation>
    </message>
    <message>
        <source>Largest sketch m_max:</source>
        <translation>最大概要 m_max：</translation>
    </message>
    <message>
        <source>Lloyd rounds per bin:</source>
        <translation>每箱 Lloyd 迭代次数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Representative cap:</source>
        <translation>代表总数上限：</translation>
    </message>
    <message>
        <source>Rows per shard:</source>
        <translation>每个分片的行数：</translation>
    </message>
    <message>
        <source>Stage B: codebook fit</source>
        <translation>阶段 B：码本拟合</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Codewords K:</source>
        <translation>码字数 K：</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>Representative weights:</source>
        <translation>代表权重：</translation>
    </message>
    <message>
        <source>Long-tail exponent α:</source>
        <translation>长尾指数 α：</translation>
    </message>
    <message>
        <source>Initialisation:</source>
        <translation>初始化：</translation>
    </message>
    <message>
        <source>Initialisation candidates:</source>
        <translation>初始化候选数：</translation>
    </message>
    <message>
        <source>Initial Lloyd refinements:</source>
        <translation>初始 Lloyd 细化次数：</translation>
    </message>
    <message>
        <source>Mini-batch:</source>
        <translation>小批量大小：</translation>
    </message>
    <message>
        <source>Sinkhorn ε:</source>
        <translation>Sinkhorn ε：</translation>
    </message>
    <message>
        <source>Sinkhorn normalisation steps:</source>
        <translation>Sinkhorn 归一化步数：</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation>权重衰减：</translation>
    </message>
    <message>
        <source>Gradient-norm clip:</source>
        <translation>梯度范数裁剪：</translation>
    </message>
    <message>
        <source>Commitment weight:</source>
        <translation>承诺损失权重：</translation>
    </message>
    <message>
        <source>Code-usage weight:</source>
        <translation>码字使用权重：</translation>
    </message>
    <message>
        <source>Temperature start:</source>
        <translation>初始温度：</translation>
    </message>
    <message>
        <source>Temperature floor:</source>
        <translation>最低温度：</translation>
    </message>
    <message>
        <source>Temperature decay:</source>
        <translation>温度衰减：</translation>
    </message>
    <message>
        <source>Epochs at most:</source>
        <translation>最多轮数：</translation>
    </message>
    <message>
        <source>Patience:</source>
        <translation>耐心值：</translation>
    </message>
    <message>
        <source>Hard-Lloyd rounds:</source>
        <translation>硬 Lloyd 迭代次数：</translation>
    </message>
    <message>
        <source>Stored dtype:</source>
        <translation>存储数据类型：</translation>
    </message>
    <message>
        <source>Restore &amp;Defaults</source>
        <translation>恢复默认值(&amp;D)</translation>
    </message>
    <message>
        <source>The paper&apos;s settings (LLaVA-OneVision column of its configuration table)</source>
        <translation>论文中的设置（其配置表中的 LLaVA-OneVision 一列）</translation>
    </message>
    <message>
        <source>AdamW β1:</source>
        <translation>AdamW β1：</translation>
    </message>
    <message>
        <source>AdamW β2:</source>
        <translation>AdamW β2：</translation>
    </message>
    <message>
        <source>AdamW ε:</source>
        <translation>AdamW ε：</translation>
    </message>
</context>
<context>
    <name>once::studio::TrainerPanel</name>
    <message>
        <source>corpus.jsonl or a folder of videos</source>
        <translation>corpus.jsonl 或视频文件夹</translation>
    </message>
    <message>
        <source>folder for the Stage-A cache</source>
        <translation>阶段 A 缓存文件夹</translation>
    </message>
    <message>
        <source>codebook.safetensors</source>
        <translation>codebook.safetensors</translation>
    </message>
    <message>
        <source>&amp;Corpus:</source>
        <translation>语料(&amp;C)：</translation>
    </message>
    <message>
        <source>Corpus manifest (*.jsonl);;All files (*)</source>
        <translation>语料清单 (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Backbone:</source>
        <translation>骨干网络(&amp;B)：</translation>
    </message>
    <message>
        <source>Stage-A c&amp;ache:</source>
        <translation>阶段 A 缓存(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Output codebook:</source>
        <translation>输出码本(&amp;O)：</translation>
    </message>
    <message>
        <source>Codebook (*.safetensors)</source>
        <translation>码本 (*.safetensors)</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Open in &amp;Main View</source>
        <translation>在主视图中打开(&amp;M)</translation>
    </message>
    <message>
        <source>Load the finished codebook into the overlay and the charts</source>
        <translation>将训练好的码本加载到叠加显示和图表中</translation>
    </message>
    <message>
        <source>Stage A:</source>
        <translation>阶段 A：</translation>
    </message>
    <message>
        <source>Stage B:</source>
        <translation>阶段 B：</translation>
    </message>
    <message>
        <source>Cancelled. Train again with the same cache folder to resume.</source>
        <translation>已取消。使用同一缓存文件夹再次训练即可续训。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Browse</source>
        <translation>浏览</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>Corpus Folder</source>
        <translation>语料文件夹</translation>
    </message>
    <message>
        <source>Choose Folder</source>
        <translation>选择文件夹</translation>
    </message>
    <message>
        <source>Save Codebook As</source>
        <translation>码本另存为</translation>
    </message>
    <message>
        <source>Choose File</source>
        <translation>选择文件</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>续训(&amp;R)</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Code-usage term</source>
        <translation>码字使用项</translation>
    </message>
    <message>
        <source>Stage-B step</source>
        <translation>阶段 B 步数</translation>
    </message>
    <message>
        <source>Code usage</source>
        <translation>码字使用</translation>
    </message>
    <message>
        <source>Resuming from the Stage-A cache…</source>
        <translation>正在从阶段 A 缓存续训…</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>正在训练…</translation>
    </message>
    <message>
        <source>Training a codebook</source>
        <translation>正在训练码本</translation>
    </message>
    <message>
        <source>Finished: %1 (%2 codewords × %3, epoch %4 selected; %5 of %6 videos sketched, %7 failed).</source>
        <translation>完成：%1（%2 个码字 × %3，选用第 %4 轮；已概要 %5 / %6 个视频，%7 个失败）。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>已失败</translation>
    </message>
    <message>
        <source>%1 at %p%</source>
        <extracomment>A progress bar after its run stopped, e.g. &quot;Stage A: cancelled at 56%&quot;.</extracomment>
        <translation>%1，停在 %p%</translation>
    </message>
    <message>
        <source>Mean Stage-B loss per epoch</source>
        <translation>每轮 B 阶段平均损失</translation>
    </message>
    <message>
        <source>Selection criterion (weighted cosine error)</source>
        <translation>选择准则（加权余弦误差）</translation>
    </message>
    <message>
        <source>Stage-B epoch (0: initialiser)</source>
        <translation>B 阶段轮次（0：初始化）</translation>
    </message>
    <message>
        <source>Loss (not recorded)</source>
        <translation>损失（未记录）</translation>
    </message>
    <message>
        <source>Criterion</source>
        <translation>准则</translation>
    </message>
    <message>
        <source>Stage-B history recorded in %1; epoch %2 (dotted) was selected.</source>
        <translation>%1 中记录的 B 阶段历史；选中了第 %2 轮（点线）。</translation>
    </message>
    <message>
        <source>Stage-B history recorded in %1.</source>
        <translation>%1 中记录的 B 阶段历史。</translation>
    </message>
</context>
<context>
    <name>once::studio::UsageDecileChart</name>
    <message>
        <source>Code usage by equal-count deciles</source>
        <translation>按等数量十分位统计的码字使用</translation>
    </message>
    <message>
        <source>This video</source>
        <translation>此视频</translation>
    </message>
    <message>
        <source>This video, leading fifth</source>
        <translation>此视频，前五分之一</translation>
    </message>
    <message>
        <source>Codebook corpus</source>
        <translation>码本语料</translation>
    </message>
    <message>
        <source>Uniform (10 %)</source>
        <translation>均匀（10 %）</translation>
    </message>
    <message>
        <source>Codeword decile (most used first)</source>
        <translation>码字十分位（使用最多者在前）</translation>
    </message>
    <message>
        <source>Share of assignments (%)</source>
        <translation>分配占比（%）</translation>
    </message>
    <message>
        <source>No assignment yet: open a video and a codebook.</source>
        <translation>尚无分配结果：请打开视频和码本。</translation>
    </message>
    <message>
        <source>The codebook file records no corpus usage; only this video is shown.</source>
        <translation>码本文件未记录语料使用情况；仅显示此视频。</translation>
    </message>
</context>
<context>
    <name>once::studio::VideoLoader</name>
    <message>
        <source>Opening %1</source>
        <translation>正在打开 %1</translation>
    </message>
    <message>
        <source>Cannot open video</source>
        <translation>无法打开视频</translation>
    </message>
    <message>
        <source>Cannot open feature file</source>
        <translation>无法打开特征文件</translation>
    </message>
    <message>
        <source>Cannot open codebook</source>
        <translation>无法打开码本</translation>
    </message>
    <message>
        <source>Checking model folder %1</source>
        <translation>正在检查模型文件夹 %1</translation>
    </message>
    <message>
        <source>Cannot open model folder</source>
        <translation>无法打开模型文件夹</translation>
    </message>
    <message>
        <source>Cannot open file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>%1: not a video, feature file, codebook or model folder (unknown file type &quot;%2&quot;).</source>
        <translation>%1：不是视频、特征文件、码本或模型文件夹（未知文件类型“%2”）。</translation>
    </message>
    <message>
        <source>Cannot load the demo</source>
        <translation>无法加载演示</translation>
    </message>
    <message>
        <source>The demo video (demo.mp4) was not found. Looked in $ONCE_DEMO_DIR, &lt;install prefix&gt;/share/once-studio/demo and the source tree%1.</source>
        <translation>未找到演示视频（demo.mp4）。已查找 $ONCE_DEMO_DIR、&lt;安装前缀&gt;/share/once-studio/demo 和源代码目录%1。</translation>
    </message>
    <message>
        <source>Loading the demo</source>
        <translation>正在加载演示</translation>
    </message>
    <message>
        <source>The demo codebook (demo_codebook.safetensors) is not installed: using %1 codewords sampled from the demo video&apos;s own features.</source>
        <translation>未安装演示码本（demo_codebook.safetensors）：改用从演示视频自身特征中采样的 %1 个码字。</translation>
    </message>
    <message>
        <source>Videos opened from now on are encoded by the model folder&apos;s %1 encoder, sampled %2 (Preferences ▸ Backbone).</source>
        <translation>此后打开的视频将由模型文件夹中的 %1 编码器编码，采样方式为 %2（首选项 ▸ 骨干网络）。</translation>
    </message>
</context>
<context>
    <name>once::studio::VideoPlayerPanel</name>
    <message>
        <source>Play or pause (Space)</source>
        <translation>播放或暂停（空格）</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Playback position</source>
        <translation>播放位置</translation>
    </message>
    <message>
        <source>No video to play.</source>
        <translation>没有可播放的视频。</translation>
    </message>
    <message>
        <source>Playback is not available: %1</source>
        <translation>无法播放：%1</translation>
    </message>
    <message>
        <source>%1 cannot be played here (a frame folder or a feature file).</source>
        <translation>%1 无法在此播放（帧文件夹或特征文件）。</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Previous frame of the video</source>
        <translation>视频的上一帧</translation>
    </message>
    <message>
        <source>Next frame of the video</source>
        <translation>视频的下一帧</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>循环播放</translation>
    </message>
    <message>
        <source>Start again from the beginning at the end of the clip</source>
        <translation>片段结束时从头重新开始</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Draw the codeword groups of the sampled frame shown over the video</source>
        <translation>在视频上绘制所显示采样帧的码字分组</translation>
    </message>
</context>
<context>
    <name>once::studio::methods</name>
    <message>
        <source>Spatial pooling</source>
        <translation>空间池化</translation>
    </message>
    <message>
        <source>Frame drop</source>
        <translation>丢帧</translation>
    </message>
    <message>
        <source>at most B tokens</source>
        <translation>最多 B 个令牌</translation>
    </message>
    <message>
        <source>Every budget from %1 up gives the same output.</source>
        <translation>从 %1 起的每个预算都给出相同的输出。</translation>
    </message>
    <message>
        <source>Budgets %1–%2 change the output; below %1 it would keep no token.</source>
        <translation>预算 %1–%2 会改变输出；低于 %1 时不会保留任何令牌。</translation>
    </message>
    <message>
        <source>Budgets %1–%2 change the output.</source>
        <translation>预算 %1–%2 会改变输出。</translation>
    </message>
    <message>
        <source>%1: %2. %3</source>
        <translation>%1：%2。%3</translation>
    </message>
    <message>
        <source>DyCoke temporal token merging: frame i whole, its neighbours keep their least similar tokens, keep ratio from the budget</source>
        <translation>DyCoke 时间维令牌合并：第 i 帧完整保留，相邻帧保留与其最不相似的令牌，保留比例由预算决定</translation>
    </message>
    <message>
        <source>FastVID: DySeg segments, salient tokens by attention (frame-mean cosine without it), DPC-kNN anchors merged per segment</source>
        <translation>FastVID：DySeg 分段，按注意力选出显著令牌（无注意力时用与帧均值的余弦），每段按 DPC-kNN 锚点合并</translation>
    </message>
    <message>
        <source>Uniform frame drop: whole frames at linspace positions, floor(budget/P) of them</source>
        <translation>均匀丢帧：在 linspace 位置保留 floor(budget/P) 个完整帧</translation>
    </message>
    <message>
        <source>Uniform spatial average pooling per frame, stride chosen so that T x ceil(H/s) x ceil(W/s) &lt;= budget</source>
        <translation>每帧均匀空间平均池化，步长取使 T x ceil(H/s) x ceil(W/s) &lt;= budget 者</translation>
    </message>
    <message>
        <source>ToMe bipartite soft matching on the video&apos;s tokens, r merges per round (0: as many as allowed) until the budget is met</source>
        <translation>ToMe 在视频令牌上做二分软匹配，每轮合并 r 个（0：尽可能多），直到满足预算</translation>
    </message>
    <message>
        <source>VisionZip per frame: dominant tokens by attention (frame-mean cosine without it) plus contextual tokens merged into strided targets</source>
        <translation>逐帧 VisionZip：按注意力选出主导令牌（无注意力时用与帧均值的余弦），其余上下文令牌合并到按步长选取的目标</translation>
    </message>
    <message>
        <source>VQToken adaptive k-means: cosine k-means++ per video, K by the elbow rule over [k_min, k_max] capped by the budget, cluster means</source>
        <translation>VQToken 自适应 k-means：每个视频做余弦 k-means++，K 由 [k_min, k_max] 上的肘部法则确定并受预算限制，输出簇均值</translation>
    </message>
    <message>
        <source>ONCE: nearest codewords of a global codebook, B most used kept, tokens reassigned and mean-pooled (the paper&apos;s rule)</source>
        <translation>ONCE：为每个令牌找全局码本中最近的码字，保留使用最多的 B 个，令牌重新分配后取均值（论文的规则）</translation>
    </message>
    <message>
        <source>ForestPrune: per-frame graph pruning, then history trees across frames; the roots and shallowest nodes are kept, excess roots merged greedily</source>
        <translation>ForestPrune：逐帧图剪枝，再跨帧构建历史树；保留根节点和最浅的节点，多余的根贪心合并</translation>
    </message>
</context>
</TS>
