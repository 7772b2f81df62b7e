// How long a fresh JVM takes to create a UCX group and bind a server, then to connect its first and second client
// (to itself, over UCX). Scratch measurement, not part of the build:
//   javac -d out -cp "$(cat benchmarks/echo/target/runtime-classpath.txt)" FirstConnect.java
//   java -cp out:"$(cat benchmarks/echo/target/runtime-classpath.txt)" FirstConnect
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;

import java.net.InetAddress;
import java.net.InetSocketAddress;

public class FirstConnect {
    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        EventLoopGroup group = new UcxEventLoopGroup(1);
        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        long bound = System.nanoTime();
        Channel first = connect(group, server);
        long firstUp = System.nanoTime();
        Channel second = connect(group, server);
        long secondUp = System.nanoTime();
        System.out.printf("group+bind %.0f ms, first connect %.0f ms, second %.1f ms%n", (bound - start) / 1e6,
                (firstUp - bound) / 1e6, (secondUp - firstUp) / 1e6);
        first.close();
        second.close();
        server.close();
        System.out.flush();
        System.exit(0);
    }

    private static Channel connect(EventLoopGroup group, Channel server) throws InterruptedException {
        return new Bootstrap().group(group).channel(UcxSocketChannel.class).handler(new ChannelInboundHandlerAdapter())
                .connect(server.localAddress()).sync().channel();
    }
}
