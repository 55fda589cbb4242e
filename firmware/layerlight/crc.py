# CRC-32 (the zlib polynomial), for saved files and deck files alike.

try:
    from binascii import crc32
except ImportError:  # a port built without it: same polynomial, in Python
    def crc32(data, value=0):
        crc = value ^ 0xFFFFFFFF
        for b in data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
        return crc ^ 0xFFFFFFFF
