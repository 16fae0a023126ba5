// 32-bit ints: the area (and a long perimeter) overflow.
#include <iostream>

int main() {
    int w, h;
    std::cin >> w >> h;
    int perimeter = (int)(2u * ((unsigned)w + (unsigned)h));
    int area = (int)((unsigned)w * (unsigned)h);
    std::cout << perimeter << " " << area << "\n";
}
