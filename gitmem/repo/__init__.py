"""repo"""
