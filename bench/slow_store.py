#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that holds back each answer of an S3 server by a delay, as a store some
way off answers later than one on loopback: the first bytes the server sends after each request
wait DELAY_MS, later bytes of the same answer do not.

    python3 bench/slow_store.py LISTEN_PORT SERVER_PORT DELAY_MS

Then point parq at it (-D s3.endpoint=http://127.0.0.1:LISTEN_PORT) with the server of bench/s3
running. It measures what waits on answers (planning splits, opening objects), not throughput:
every byte also passes through this process. README's object-storage section took the figure of
planning a 1 GiB object's splits through it at 20 ms.
"""
import asyncio
import sys


async def relay(listen_port, server_port, delay):
    async def connection(client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", server_port)
        asked = False

        async def requests():
            nonlocal asked
            try:
                while data := await client_reader.read(1 << 16):
                    asked = True
                    server_writer.write(data)
                    await server_writer.drain()
            except OSError:
                pass
            finally:
                server_writer.close()

        async def answers():
            nonlocal asked
            try:
                while data := await server_reader.read(1 << 16):
                    if asked:
                        asked = False
                        await asyncio.sleep(delay)
                    client_writer.write(data)
                    await client_writer.drain()
            except OSError:
                pass
            finally:
                client_writer.close()

        await asyncio.gather(requests(), answers())

    server = await asyncio.start_server(connection, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    asyncio.run(relay(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000))
