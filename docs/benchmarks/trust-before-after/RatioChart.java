import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BoxChart;
import org.knowm.xchart.BoxChartBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.*;

/** Box plot of after/before ratios per benchmark, from system.csv (one row per build, run and benchmark). */
public class RatioChart {
    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        String[] header = lines.get(0).split(",");
        Map<String, Integer> col = new HashMap<>();
        for (int i = 0; i < header.length; i++) col.put(header[i], i);
        Map<String, Map<String, Double>> before = new TreeMap<>(), after = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            int size = Integer.parseInt(f[col.get("size_bytes")]);
            String key = f[col.get("transport")] + (f[col.get("benchmark")].equals("pingpong") ? " rtt " : " tput ")
                    + (size >= 1024 ? size / 1024 + "K" : size + "B") + " x" + f[col.get("connections")];
            (f[col.get("build")].equals("before") ? before : after).computeIfAbsent(key, k -> new HashMap<>())
                    .put(f[col.get("run")], Double.parseDouble(f[col.get("value")]));
        }
        BoxChart chart = new BoxChartBuilder().width(1400).height(700)
                .title("protocol 4 / protocol 3, per alternating run (pingpong: p50 latency, lower is better; throughput: MB/s, higher is better)")
                .xAxisTitle("benchmark").yAxisTitle("after / before").build();
        chart.getStyler().setXAxisLabelRotation(45);
        for (String key : before.keySet()) {
            List<Double> ratios = new ArrayList<>();
            for (Map.Entry<String, Double> b : before.get(key).entrySet()) {
                Double a = after.getOrDefault(key, Map.of()).get(b.getKey());
                if (a != null && b.getValue() > 0) ratios.add(a / b.getValue());
            }
            if (!ratios.isEmpty()) chart.addSeries(key, ratios);
        }
        BitmapEncoder.saveBitmap(chart, args[1], BitmapEncoder.BitmapFormat.PNG);
    }
}
