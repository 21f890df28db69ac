"""Raspberry Pi board hardware (optional extra `pi`): reed switches under the holes, a WS2812
LED under each hole, and the `pegs hw-test` wiring diagnostic. See hardware/README.md.

Importing this package loads no device library: gpiozero, the NeoPixel drivers and smbus2
are imported when a device is first opened (hardware.mock, the emulation, imports
gpiozero's mock pins when it is itself imported).
"""
