import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BoxChart;
import org.knowm.xchart.BoxChartBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Box plot of the per-round ratios of results.csv: JDK 25 / JDK 17 on the same code, and the code without Unsafe /
 * the code with it on JDK 17 (time per operation, lower is better for the numerator); or of the ratios named by a
 * third argument, as aggregate.py takes them ("A/B=LABEL;A/B=LABEL").
 *
 *   java -cp <xchart jar> RatioChart.java results.csv ratios.png [RATIOS]
 */
public class RatioChart {
    public static void main(String[] args) throws Exception {
        // benchmark and size -> config -> round -> ns/op
        Map<String, Map<String, Map<String, Double>>> runs = new TreeMap<>();
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            String key = f[2] + " " + f[3] + " B";
            runs.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(f[0], k -> new TreeMap<>())
                    .put(f[1], Double.parseDouble(f[4]));
        }
        BoxChart chart = new BoxChartBuilder().width(1200).height(600)
                .title("time per operation, ratio per alternating round (below 1: faster)")
                .xAxisTitle("comparison: benchmark, size").yAxisTitle("ratio").build();
        String[][] pairs = {{"after-jdk25", "after-jdk17", "JDK 25 / JDK 17"},
                {"after-jdk17", "before-jdk17", "no Unsafe / Unsafe (JDK 17)"}};
        if (args.length > 2) {
            String[] specs = args[2].split(";");
            pairs = new String[specs.length][];
            for (int i = 0; i < specs.length; i++) {
                String[] pairAndLabel = specs[i].split("=", 2);
                String[] ab = pairAndLabel[0].split("/");
                pairs[i] = new String[] {ab[0], ab[1], pairAndLabel[1]};
            }
        }
        for (String[] pair : pairs) {
            for (Map.Entry<String, Map<String, Map<String, Double>>> e : runs.entrySet()) {
                Map<String, Double> a = e.getValue().get(pair[0]);
                Map<String, Double> b = e.getValue().get(pair[1]);
                if (a == null || b == null) {
                    continue;
                }
                List<Double> ratios = new ArrayList<>();
                for (String round : a.keySet()) {
                    if (b.containsKey(round)) {
                        ratios.add(a.get(round) / b.get(round));
                    }
                }
                chart.addSeries(pair[2] + ": " + e.getKey(), ratios);
            }
        }
        chart.getStyler().setXAxisLabelRotation(30);
        BitmapEncoder.saveBitmap(chart, args[1], BitmapEncoder.BitmapFormat.PNG);
    }
}
